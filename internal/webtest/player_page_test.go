package webtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// inView is JavaScript: whether every element a selector finds is shown
// whole inside the window as it is (no scrolling).
func inView(sel string) string {
	return fmt.Sprintf(`(() => {
		const els = [...document.querySelectorAll(%q)].filter(e => e.getClientRects().length);
		return els.length > 0 && els.every(e => { const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; });
	})()`, sel)
}

// snap saves a screenshot of the window as it is, with -screenshots.
func snap(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(*screenshots, name+".png")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", p)
}

// On a desktop the decision's buttons and the seconds
// left lie in the window without scrolling, at a laptop's 1280×660, at
// 1440×760 and at 1920×940, wherever the page was scrolled; the hand in
// turn is in sight above them.
func TestDecisionInView(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	sit(t, ana, 7)
	for i, size := range [][2]int64{{1280, 660}, {1440, 760}, {1920, 940}} {
		do(t, ana, "the window", chromedp.EmulateViewport(size[0], size[1]))
		// ana 9S 3C = 12 against the dealer's 7D: she stands; the dealer 7D TH.
		g.force(t, "9S 7D 3C TH")
		bet(t, ana, 7, 500)
		waitKey(t, ana, fmt.Sprintf("the decision at %dx%d", size[0], size[1]), "s")
		for _, scroll := range []string{"0", "document.documentElement.scrollHeight"} {
			eval[bool](t, ana, `(window.scrollTo(0, `+scroll+`), true)`)
			for _, sel := range []string{".prompt button.act-hit", ".prompt button.act-stand", ".prompt .clock-secs"} {
				if !eval[bool](t, ana, inView(sel)) {
					shot(t, ana, fmt.Sprintf("out-of-view-%d", i))
					t.Errorf("%dx%d, scrolled to %s: %s is not in the window", size[0], size[1], scroll, sel)
				}
			}
		}
		if i == 0 {
			eval[bool](t, ana, `(window.scrollTo(0, 0), true)`)
			snap(t, ana, "table-laptop")
		}
		if got := text(t, ana, ".prompt .clock-secs"); !strings.HasSuffix(got, " s") {
			t.Errorf("the decision's seconds left read %q", got)
		}
		press(t, ana, "stand", "s")
		waitJS(t, ana, "the round settled", `!!document.querySelector('.box[data-box="7"] .badge')`)
	}
}

// At 390×844 the header is one row (a menu), and while
// betting the chips, the seconds left to bet and re-bet are on the same
// screen as the player's spot; the decision sheet shows its seconds too.
func TestPhoneBettingOneScreen(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ben := g.join(t, "ben")
	sit(t, ben, 1) // seated, not yet betting: the window stays open
	ana := g.join(t, "ana")
	do(t, ana, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	sit(t, ana, 7)
	if h := eval[float64](t, ana, `document.querySelector('header.top').getBoundingClientRect().height`); h > 64 {
		t.Errorf("the header is %.0f px high, want one row (≤ 64)", h)
	}
	// The menu opens the links, the account and the language.
	click(t, ana, "#menu-toggle")
	waitJS(t, ana, "the menu open", inView(`#menu .nav a[href="/recall"]`)+` && `+inView(`#balance`))
	click(t, ana, "#menu-toggle")
	waitJS(t, ana, "the menu closed", `!document.querySelector('#menu .nav a').getClientRects().length`)

	g.force(t, "9S 8S 7D 3C 9C TH")
	bet(t, ana, 7, 500)
	waitJS(t, ana, "the betting countdown", `!!document.querySelector('.bet-tray .clock:not([hidden]) .clock-secs')?.textContent`)
	eval[bool](t, ana, `(window.scrollTo(0, 0), true)`)
	for _, sel := range []string{`.box[data-box="7"] .spot.holder`, ".bet-tray .rack .chip", ".bet-tray .clock-secs", ".bet-tray .bet-action.rebet"} {
		if !eval[bool](t, ana, inView(sel)) {
			shot(t, ana, "phone-betting")
			t.Errorf("on a phone, betting: %s is not on the screen", sel)
		}
	}
	if !eval[bool](t, ana, `document.querySelector('.box[data-box="7"] .spot.holder').getBoundingClientRect().bottom <= document.querySelector('.bet-tray').getBoundingClientRect().top`) {
		t.Errorf("the chip tray covers the spot")
	}
	picture(t, ana, "table-betting-phone", true)
	// The decision sheet has its seconds left.
	bet(t, ben, 1, 500) // every seated player has bet: the deal
	waitKey(t, ben, "ben's decision", "s")
	click(t, ben, ".prompt button.act-stand")
	waitKey(t, ana, "the decision", "s")
	waitJS(t, ana, "the seconds on the sheet", inView(".prompt .clock-secs")+` && /^\d+ s$/.test(document.querySelector('.prompt .clock-secs').textContent)`)
	click(t, ana, ".prompt button.act-stand")
}

// english lists what of English a page in another language shows: the
// phrases of the English catalogue that its own catalogue does not have
// (each piece between values, of two words or more), and what the page
// once said in English without a catalogue, in its visible
// text, its aria labels and values, titles and placeholders.
const english = `(() => {
	const en = window.__cat.en, own = window.__cat[document.documentElement.lang];
	const forms = v => (typeof v === 'object' ? Object.values(v) : [v]);
	const mine = Object.values(own).flatMap(forms).join('\n');
	const phrases = new Set(['● live', '○ connecting', 'seconds', 'Reference: ', 'is taken', "refused by the operator", 'time left to decide', "The dealer's calls"]);
	for (const [k, v] of Object.entries(en)) {
		if (JSON.stringify(own[k]) === JSON.stringify(v)) continue;
		for (const f of forms(v)) for (let p of f.split(/\{\w+\}/)) {
			p = p.replace(/^[\s.,:;!?()—–·"“”'’-]+|[\s.,:;!?()—–·"“”'’-]+$/g, '');
			if (p.length >= 8 && /[a-z]{2,} +[a-z]{2,}/i.test(p) && !mine.includes(p)) phrases.add(p);
		}
	}
	const seen = [document.title, document.body.innerText];
	for (const el of document.querySelectorAll('*')) for (const a of ['aria-label', 'aria-valuetext', 'title', 'placeholder']) if (el.hasAttribute(a)) seen.push(el.getAttribute(a));
	const text = seen.join('\n');
	return [...phrases].filter(p => text.includes(p)).join(' | ');
})()`

// noEnglish fails the test with the English a page shows.
func noEnglish(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	eval[bool](t, ctx, `(window.__cat || Promise.all(['en', 'es', 'it'].map(l => import('/js/i18n/' + l + '.js'))).then(ms => { window.__cat = { en: ms[0].default, es: ms[1].default, it: ms[2].default } }), true)`)
	waitJS(t, ctx, "the catalogues", `!!window.__cat`)
	if got := eval[string](t, ctx, english); got != "" {
		shot(t, ctx, "english")
		t.Errorf("%s: the page shows English: %s", where, got)
	}
}

// No English on a Spanish or an Italian page: the login
// page with a name taken, the lobby, a reference profile's table with its
// rules, betting with the seconds left, a decision, the account, the
// rounds recalled and a replay.
func TestNoEnglish(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Reference", "vegas-s17")
	site, tb := g.site, g.table
	ana, ben := g.player(t, "ana"), g.player(t, "ben")
	path := g.path()
	open(t, ben, site, path, ".box .plate")
	sit(t, ben, 1)
	for round, lang := range []string{"es", "it"} {
		choose(t, ana, lang)
		// A name taken, on the login page.
		open(t, ana, site, "/login", "#name")
		waitJS(t, ana, "the page in "+lang, `document.documentElement.lang === '`+lang+`'`)
		do(t, ana, "register a name taken", chromedp.SendKeys(chromedp.ID("name"), "BEN"), chromedp.SendKeys(chromedp.ID("password"), Password), chromedp.Click(chromedp.ID("register")))
		waitJS(t, ana, "the refusal", `document.getElementById('login-error').textContent.includes('BEN')`)
		noEnglish(t, ana, lang+" login")
		open(t, ana, site, "/", ".table-card")
		waitJS(t, ana, "the edge", `!document.querySelector('.table-card .edge').textContent.includes('…')`)
		noEnglish(t, ana, lang+" lobby")

		// The table: betting with the seconds left, then a decision.
		open(t, ana, site, path, ".box .plate")
		if round == 0 {
			sit(t, ana, 3)
		}
		waitJS(t, ana, "the rules", `!!document.querySelector('.rules-panel .desc')?.textContent`)
		site.Force(t, tb, "TS 9S 7D 6C 8C TH")
		bet(t, ana, 3, 500)
		waitJS(t, ana, "the betting countdown", `!!document.querySelector('.bet-tray .clock:not([hidden])') && document.querySelector('.timer:not([hidden])')?.hasAttribute('aria-valuetext')`)
		noEnglish(t, ana, lang+" table, betting")
		bet(t, ben, 1, 500)
		waitKey(t, ben, "ben's decision", "s")
		click(t, ben, ".prompt button.act-stand")
		waitKey(t, ana, "ana's decision", "s")
		noEnglish(t, ana, lang+" table, a decision")
		click(t, ana, ".prompt button.act-stand")
		waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="3"] .badge')`)
		noEnglish(t, ana, lang+" table, settled")

		open(t, ana, site, "/account", ".care-form")
		waitJS(t, ana, "the limits loaded", `!!document.querySelector('#care-reality option')`)
		noEnglish(t, ana, lang+" account")
		open(t, ana, site, "/recall", "main h1")
		waitJS(t, ana, "the rounds", `document.querySelectorAll('table.rounds tbody tr').length > 0`)
		noEnglish(t, ana, lang+" recall")
		open(t, ana, site, "/rounds/"+itoa(tb)+"-"+itoa(int64(round+1)), ".replay-summary")
		noEnglish(t, ana, lang+" replay")
	}
}

// When the server goes away mid-decision the table is
// dimmed under a notice in the page's language, the seconds left stand
// still, a click says it was not sent and sends nothing; when the server
// is back the page is live again and the decision is made once.
func TestLostConnection(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "spain")
	ana := g.join(t, "ana")
	choose(t, ana, "es")
	waitJS(t, ana, "the page in Spanish", `document.documentElement.lang === 'es' && !!document.querySelector('.box .plate')`)
	sit(t, ana, 7)
	// ana 9S 3C = 12 against the dealer's 7D: she hits (2D: 14) and stands.
	g.force(t, "9S 7D 3C 2D TH")
	bet(t, ana, 7, 500)
	waitKey(t, ana, "ana's decision", "h")
	waitJS(t, ana, "live", `document.querySelector('.conn').classList.contains('open')`)

	g.site.Down(t)
	waitJS(t, ana, "the notice", `!document.querySelector('.offline-notice').hidden && document.querySelector('.table-page').classList.contains('offline')`)
	if got := text(t, ana, ".offline-notice strong"); got != "Conexión perdida." {
		t.Errorf("the notice says %q", got)
	}
	// The seconds left stand still while the page cannot hear the table.
	secs := text(t, ana, ".prompt .clock-secs")
	eval[bool](t, ana, `(window.__t0 = Date.now(), true)`)
	waitJS(t, ana, "two seconds of the page's clock", `Date.now() - window.__t0 > 2100`)
	if got := text(t, ana, ".prompt .clock-secs"); got != secs {
		t.Errorf("the seconds left ran on while offline: %q, then %q", secs, got)
	}
	// The decision bar stays where it was, dimmed with the rest.
	if !eval[bool](t, ana, inView(".prompt button.act-hit")) {
		t.Errorf("the decision bar left the window when the table was dimmed")
	}
	// A click goes nowhere, and says so.
	click(t, ana, ".prompt button.act-hit")
	waitJS(t, ana, "the click not sent", `document.querySelector('.offline-notice .offline-text').textContent.startsWith('No enviado')`)
	snap(t, ana, "table-offline")

	g.site.Up(t)
	waitJS(t, ana, "live again", `document.querySelector('.conn').classList.contains('open') && document.querySelector('.offline-notice').hidden && !document.querySelector('.table-page').classList.contains('offline')`)
	waitKey(t, ana, "the decision again", "h")
	if n := eval[int](t, ana, `document.querySelectorAll('.box[data-box="7"] .card').length`); n != 2 {
		t.Fatalf("the hit clicked offline was sent: %d cards", n)
	}
	click(t, ana, ".prompt button.act-hit")
	waitJS(t, ana, "the hit's card", `document.querySelectorAll('.box[data-box="7"] .card').length === 3`)
	waitKey(t, ana, "the decision on 14", "s")
	if n := eval[int](t, ana, `document.querySelectorAll('.box[data-box="7"] .card').length`); n != 3 {
		t.Errorf("one hit dealt %d cards", n)
	}
	click(t, ana, ".prompt button.act-stand")
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="7"] .badge')`)
}

// A double or a split that the player's loss limit
// would refuse is not offered (the page says why), and the account page
// offers the breaks shortest first, each worded by its length.
func TestLimitTakesOffDoubleAndSplit(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Madrid", "vegas-s17")
	ana := g.player(t, "ana")
	open(t, ana, g.site, "/account", ".care-form")
	waitJS(t, ana, "the limits loaded", `!!document.querySelector('#care-reality option')`)
	if got := eval[string](t, ana, `[...document.querySelectorAll('.care-breaks button')].map(b => b.textContent).join(' | ')`); got != "Time-out: 1 day | Time-out: 1 week | Time-out: 1 month | Self-exclusion: 6 months | Self-exclusion: 1 year | Self-exclusion: 5 years" {
		t.Errorf("the breaks: %s", got)
	}
	do(t, ana, "a loss limit", chromedp.SetValue(chromedp.ID("care-kind"), "loss"), chromedp.SendKeys(chromedp.ID("care-amount"), "7.50"), chromedp.Click(chromedp.ID("care-set")))
	waitJS(t, ana, "the limit set", `document.querySelector('.care-limits li').textContent.startsWith('Losses: 7.50 a day')`)
	open(t, ana, g.site, g.path(), ".box .plate")
	sit(t, ana, 1)
	// ana 8S 8H against the dealer's 6D (the hole TC): a pair of eights,
	// 5.00 down of her 7.50: neither a split nor a double fits.
	g.force(t, "8S 6D 8H TC")
	bet(t, ana, 1, 500)
	waitJS(t, ana, "the decision, the limit's note", `!!document.querySelector('.prompt:not([hidden]) button.act-stand') && !!document.querySelector('.prompt .prompt-care')`)
	if got := keys(t, ana); got != "h s" {
		t.Errorf("offered %q, want h s: a split or a double would pass the loss limit", got)
	}
	if got := text(t, ana, ".prompt .prompt-care"); got != "Not offered: double, split would pass your limits; you may stake 2.50 more now." {
		t.Errorf("the note: %q", got)
	}
	do(t, ana, "a laptop's window", chromedp.EmulateViewport(1280, 720))
	eval[bool](t, ana, `(window.scrollTo(0, 0), true)`)
	snap(t, ana, "table-limit")
	click(t, ana, ".prompt button.act-stand")
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge')`)
}

// The staff's pages: no English on the pit page in es and
// it — its forms, the tables, the players found (one blocked), the
// significant events (a credit, a table opened, a block) — nor on the
// dealer's console of a table dealt from a physical shoe.
func TestNoEnglishStaff(t *testing.T) {
	t.Parallel()
	g := newGame(t, slow, "Sala 1", "venice", "shoe=physical")
	g.player(t, "ana")
	g.player(t, "anton")
	site := g.site
	site.Credit(t, "ana", 1234)
	pit := g.tab(t)
	login(t, pit, site, "pit")
	for _, lang := range []string{"es", "it"} {
		choose(t, pit, lang)
		open(t, pit, site, "/pit", "#players")
		waitJS(t, pit, "the page in "+lang, `document.documentElement.lang === '`+lang+`'`)
		waitJS(t, pit, "the tables", `!!document.querySelector('.pit-tables tr[data-table]')`)
		waitJS(t, pit, "the events", `document.querySelectorAll('.pit-events tbody tr[data-kind]').length > 0`)
		eval[bool](t, pit, `(document.getElementById('players-q').value = '', true)`)
		do(t, pit, "find ana", chromedp.SendKeys(chromedp.ID("players-q"), "an"))
		click(t, pit, `#players button[type=submit]`)
		waitJS(t, pit, "ana found", `!!document.querySelector('.pit-players tr[data-player="ana"]')`)
		if lang == "es" { // anton blocked: his row and the event
			eval[bool](t, pit, `(() => { window.prompt = () => 'colusión'; return true })()`)
			click(t, pit, `.pit-players tr[data-player="anton"] button[data-op="block"]`)
			waitJS(t, pit, "anton blocked", `!!document.querySelector('.pit-players tr[data-player="anton"] button[data-op="unblock"]')`)
			waitJS(t, pit, "the block's event", `[...document.querySelectorAll('.pit-events tbody tr')].some(r => r.innerText.includes('colusión'))`)
		}
		noEnglish(t, pit, lang+" pit")
		open(t, pit, site, g.path()+"/console", "main")
		waitJS(t, pit, "the console", `document.querySelectorAll('main button').length > 0`)
		noEnglish(t, pit, lang+" console")
	}
}
