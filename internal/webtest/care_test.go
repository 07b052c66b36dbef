package webtest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A player sets a stake limit on his account page;
// a bet over it is refused in words (not the server's raw text); the table
// shows the session's time and, at the interval, the reality check with the
// time played and the net, which he acknowledges.
func TestResponsibleGaming(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.player(t, "ana")
	open(t, ana, g.site, "/account", ".care-form")
	waitJS(t, ana, "the limits loaded", `!!document.querySelector('#care-reality option')`)
	do(t, ana, "a stake limit of 5.00 a day",
		chromedp.SetValue(chromedp.ID("care-kind"), "stake"),
		chromedp.SetValue(chromedp.ID("care-period"), "day"),
		chromedp.SendKeys(chromedp.ID("care-amount"), "5.00"),
		chromedp.Click(chromedp.ID("care-set")))
	waitJS(t, ana, "the limit set", `document.querySelector('.care-limits li').textContent.startsWith('Stakes: 5.00 a day')`)
	if got := text(t, ana, ".care-status"); got != "Saved." {
		t.Errorf("the page says %q", got)
	}

	open(t, ana, g.site, g.path(), ".box .plate")
	waitJS(t, ana, "the session's time", `/^Session \d+:\d\d$/.test(document.querySelector('.session-time')?.textContent || '')`)
	sit(t, ana, 1)
	// Round 1 within the limit: ana TS 9C = 19 against 7D, who draws TH.
	g.force(t, "TS 7D 9C TH")
	bet(t, ana, 1, 500)
	waitKey(t, ana, "ana's decision", "s")
	click(t, ana, `.prompt button.act-stand`)
	waitJS(t, ana, "round 1 settled", `!!document.querySelector('.box[data-box="1"] .badge.win')`)
	// Round 2: 5.00 more would pass the day's 5.00.
	bet(t, ana, 1, 500)
	waitJS(t, ana, "the refusal", `!document.getElementById('toast').hidden`)
	if got := text(t, ana, "#toast"); got != "Your stake limit is 5.00 a day: 5.00 staked so far; 5.00 more would pass it." {
		t.Errorf("the refusal shown: %q", got)
	}

	// The reality check, every 2 s in this tab.
	open(t, ana, g.site, g.path()+"?reality=2", ".box .plate")
	waitJS(t, ana, "the reality check", `!!document.querySelector('.reality[role="alertdialog"]')`)
	if got := text(t, ana, "#reality-text"); !strings.HasPrefix(got, "You have played for 0 min this session; your result so far: +5.00.") {
		t.Errorf("the reality check says %q", got)
	}
	click(t, ana, `.reality button.button:not(.secondary)`)
	waitJS(t, ana, "the check acknowledged", `!document.querySelector('.reality')`)
}

// Sound is off and motion on by default; each is a
// switch remembered in the browser; motion off stops the cards' slide.
func TestSoundAndMotionSwitches(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	pressed := func() string {
		return eval[string](t, ana, `[...document.querySelectorAll('.fx')].map(b => b.textContent + '=' + b.getAttribute('aria-pressed')).join(' ')`)
	}
	if got := pressed(); got != "Sound=false Motion=true" {
		t.Errorf("by default: %q", got)
	}
	click(t, ana, `.fx:nth-of-type(1)`)
	click(t, ana, `.fx:nth-of-type(2)`)
	open(t, ana, g.site, g.path(), ".box .plate")
	if got := pressed(); got != "Sound=true Motion=false" {
		t.Errorf("after a reload: %q", got)
	}
	if !eval[bool](t, ana, `document.documentElement.classList.contains('no-motion')`) {
		t.Error("motion off, the page is not marked no-motion")
	}
	if got := eval[string](t, ana, `(() => { const c = document.createElement('div'); c.className = 'card fresh'; document.body.append(c); return getComputedStyle(c).animationName; })()`); got != "none" {
		t.Errorf("motion off, a card dealt slides in: animation %q", got)
	}
}
