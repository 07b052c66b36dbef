package webtest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

var shots = flag.String("shots", "", "write the table's screenshots at every size and language (betting, a player's turn) to this directory")

// sizes are the common screens, from a small phone to a large desktop.
var sizes = []struct {
	name          string
	width, height int64
	phone         bool
}{
	{"phone-360x640", 360, 640, true},
	{"phone-390x844", 390, 844, true},
	{"tablet-768x1024", 768, 1024, true},
	{"laptop-1280x800", 1280, 800, false},
	{"laptop-1366x768", 1366, 768, false},
	{"desktop-1440x900", 1440, 900, false},
	{"desktop-1920x1080", 1920, 1080, false},
	{"desktop-2560x1440", 2560, 1440, false},
}

// allInView is a script: the elements the selectors name are each shown, whole,
// within the window, unscrolled; else the first that is not and where. The
// elements of under come above the bar (a selector) held at the window's
// foot, not behind it.
const allInView = `((sels, under = [], bar = '') => {
	window.scrollTo(0, 0);
	const top = bar && document.querySelector(bar) ? document.querySelector(bar).getBoundingClientRect().top : innerHeight;
	for (const s of under) {
		const el = document.querySelector(s);
		if (!el) return s + ': missing';
		const r = el.getBoundingClientRect();
		if (r.top < 0 || r.bottom > top + 0.5) return s + ': at ' + Math.round(r.top) + '-' + Math.round(r.bottom) + ', the bar at ' + Math.round(top) + ' in ' + innerWidth + 'x' + innerHeight;
	}
	for (const s of sels) {
		const el = document.querySelector(s);
		if (!el) return s + ': missing';
		const r = el.getBoundingClientRect();
		if (r.height === 0 || r.width === 0) return s + ': not shown';
		if (r.top < 0 || r.bottom > innerHeight + 0.5 || r.left < 0 || r.right > innerWidth + 0.5)
			return s + ': at ' + Math.round(r.left) + ',' + Math.round(r.top) + '-' + Math.round(r.right) + ',' + Math.round(r.bottom) + ' in ' + innerWidth + 'x' + innerHeight;
	}
	return '';
})`

// uncovered is a script: no occupied box (one with a player's plate) is
// behind the bar (a selector) held at the window's foot, unscrolled (of
// each box, the parts a selector names); else the first that is and
// where.
const uncovered = `((bar, parts = '.hands, .spot, .plate') => {
	window.scrollTo(0, 0);
	const b = document.querySelector(bar);
	if (!b) return bar + ': missing';
	const r = b.getBoundingClientRect();
	for (const box of document.querySelectorAll('.box')) {
		if (!box.querySelector('.plate .name')) continue;
		for (const el of box.querySelectorAll(parts)) {
			const e = el.getBoundingClientRect();
			if (e.width === 0 || e.height === 0) continue;
			if (e.bottom > r.top + 0.5 && e.top < r.bottom && e.right > r.left && e.left < r.right)
				return 'box ' + box.dataset.box + ' (' + el.className + ') at ' + Math.round(e.top) + '-' + Math.round(e.bottom) + ', the bar at ' + Math.round(r.top) + ' in ' + innerWidth + 'x' + innerHeight;
		}
	}
	return '';
})`

// What a player needs is in view, unscrolled, at every common size: in
// the betting phase the chips, the countdown, the status and the Deal
// button; in his turn the decision's buttons, its timer and his hand; on
// a phone the decision panel takes no more than a third of the screen.
func TestWhatThePlayerNeedsIsInViewAtEverySize(t *testing.T) {
	t.Parallel()
	g := newGame(t, keep, "Venezia", "venice", "lone_customer_boxes", "0")
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	sit(t, ana, 4) // the middle box, the lowest on the felt
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			viewport(t, ana, sz.width, sz.height, sz.phone)
			langs := []string{"en"}
			if *shots != "" {
				langs = []string{"en", "es", "it"}
			}
			for _, lang := range langs {
				choose(t, ana, lang)
				waitJS(t, ana, "the page in "+lang, fmt.Sprintf(`document.documentElement.lang === %q`, lang))
				// ana 9S 2C = 11 against the dealer's 7D at box 1: she must
				// draw (VE-06), then stands on 9S 2C TD; at box 4 TS TH = 20,
				// she stands; the dealer 7D 8H 5C: 20.
				g.force(t, "9S TS 7D 2C TH TD 8H 5C")
				bet(t, ana, 1, 500)
				bet(t, ana, 4, 0)
				waitJS(t, ana, "the countdown", `!!document.querySelector('.bet-tray .clock:not([hidden])')`)
				if where := eval[string](t, ana, allInView+`(['.rack .chip.chosen', '.bet-tray .clock', '.bet-tray .status-line', '[data-fk="bet-deal"]'], ['.box[data-box="1"] .spot.holder'], '.betting.open .bet-tray')`); where != "" {
					t.Errorf("%s, betting: %s", lang, where)
				}
				sizeShot(t, ana, sz.name+"-"+lang+"-betting")
				click(t, ana, `[data-fk="bet-deal"]`)
				waitKey(t, ana, "ana's decision", "h")
				waitJS(t, ana, "box 1's hand in turn", `!!document.querySelector('.box[data-box="1"] .hand.current')`)
				if where := eval[string](t, ana, allInView+`(['.prompt:not([hidden]) button.act-hit', '.prompt:not([hidden]) [role=timer]'], ['.box[data-box="1"] .hand.current'], '.prompt:not([hidden])')`); where != "" {
					t.Errorf("%s, her turn: %s", lang, where)
				}
				// On a phone the boxes are a list the page scrolls, the
				// player's own first: their hands and spots are above the bar.
				parts := `'.hands, .spot, .plate'`
				if sz.phone {
					parts = `'.hands, .spot.holder'`
				}
				if where := eval[string](t, ana, uncovered+`('.prompt:not([hidden])', `+parts+`)`); where != "" {
					t.Errorf("%s, her turn: the decision bar covers %s", lang, where)
				}
				if sz.phone {
					if frac := eval[float64](t, ana, `document.querySelector('.prompt:not([hidden])').getBoundingClientRect().height / innerHeight`); frac > 1.0/3+0.001 {
						t.Errorf("%s: the decision panel takes %.0f%% of the phone's screen, more than a third", lang, 100*frac)
					}
				}
				sizeShot(t, ana, sz.name+"-"+lang+"-turn")
				click(t, ana, `.prompt button.act-hit`) // 21 stands (VE-06)
				waitJS(t, ana, "box 4's turn", `!!document.querySelector('.box[data-box="4"].turn')`)
				waitKey(t, ana, "ana's decision at box 4", "s")
				press(t, ana, "stand at box 4", "s")
				waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="1"] .badge')`)
				waitJS(t, ana, "the betting open", `document.querySelector('.betting').classList.contains('open')`)
			}
		})
	}
}

// viewport sets the page's window: a phone's is emulated at 2x, with touch.
func viewport(t *testing.T, ctx context.Context, w, h int64, phone bool) {
	t.Helper()
	if phone {
		do(t, ctx, "a phone", chromedp.EmulateViewport(w, h, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
		return
	}
	do(t, ctx, "a screen", chromedp.EmulateViewport(w, h))
}

// sizeShot saves the page as it is shown, where -shots names a directory.
func sizeShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *shots == "" {
		return
	}
	do(t, ctx, "settle", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Sleep(300e6))
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*shots, name+".png"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The lobby on a phone shows several tables in the first screen, not one.
func TestLobbyShowsSeveralTablesOnAPhone(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow)
	for _, p := range []string{"venice", "spain", "argentina", "vegas-s17"} {
		site.Table(t, "T "+p, p, limits())
	}
	ctx := Browser(t, 1280, 800)
	register(t, ctx, site, "ana")
	viewport(t, ctx, 360, 640, true)
	open(t, ctx, site, "/", ".table-card")
	n := eval[int](t, ctx, `(window.scrollTo(0, 0), [...document.querySelectorAll('.table-card')].filter(c => { const r = c.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight - 40; }).length)`)
	sizeShot(t, ctx, "phone-360x640-lobby")
	if n < 3 {
		t.Fatalf("the phone's first screen shows the start of %d tables, want 3 or more", n)
	}
}
