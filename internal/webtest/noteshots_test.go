package webtest

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"sabot/internal/server"
)

// noteShot takes the window as it is shown, unscrolled, checks that it is
// a PNG of the window's size in device pixels (w×h at the scale) and
// writes it to dir as name.png.
func noteShot(t *testing.T, ctx context.Context, dir, name string, w, h, scale int) {
	t.Helper()
	do(t, ctx, "settle", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Sleep(300e6))
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", name, err)
	}
	if got := img.Bounds().Size(); got.X != w*scale || got.Y != h*scale {
		t.Fatalf("%s: %dx%d pixels, want %dx%d (%dx%d at %dx)", name, got.X, got.Y, w*scale, h*scale, w, h, scale)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The screenshots a review looks at (the session's note), written to
// $SABOT_SHOTS_DIR, else to a temporary directory: the player's table in
// the betting phase and in his turn at 1920×1080 (in English, Spanish
// and Italian), 1366×768, 1280×800 and a phone's 390×844, with the money
// in euros; the pit's floor with a player rated and the dealer's console
// asking for a card. Each is a PNG of its window's size, and what the
// player needs is in view in each (allInView, as
// TestWhatThePlayerNeedsIsInViewAtEverySize checks at every size).
func TestScreenshotsForTheNote(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("SABOT_SHOTS_DIR")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	site := MustStart(t, keep, func(s *server.Server) { s.Currency = "EUR" })
	g := &game{site: site, table: site.Table(t, "Venezia", "venice", limits("lone_customer_boxes", "0")), logs: map[context.Context]*pageLog{}}
	ana := g.join(t, "ana")
	sit(t, ana, 1)
	sit(t, ana, 4)
	for _, sz := range []struct {
		name  string
		w, h  int
		phone bool
		langs []string
	}{
		{"1920x1080", 1920, 1080, false, []string{"en", "es", "it"}},
		{"1366x768", 1366, 768, false, []string{"es"}},
		{"1280x800", 1280, 800, false, []string{"it"}},
		{"phone-390x844", 390, 844, true, []string{"es", "en"}},
	} {
		scale := 1
		if sz.phone {
			scale = 2
		}
		viewport(t, ana, int64(sz.w), int64(sz.h), sz.phone)
		for _, lang := range sz.langs {
			choose(t, ana, lang)
			waitJS(t, ana, "the page in "+lang, fmt.Sprintf(`document.documentElement.lang === %q`, lang))
			// As in TestWhatThePlayerNeedsIsInViewAtEverySize: ana's 11 at
			// box 1 must draw (VE-06), she stands on 20 at box 4.
			g.force(t, "9S TS 7D 2C TH TD 8H 5C")
			bet(t, ana, 1, 500)
			bet(t, ana, 4, 0)
			waitJS(t, ana, "the countdown", `!!document.querySelector('.bet-tray .clock:not([hidden])')`)
			if where := eval[string](t, ana, allInView+`(['.rack .chip.chosen', '.bet-tray .clock', '.bet-tray .status-line', '[data-fk="bet-deal"]'])`); where != "" {
				t.Errorf("%s %s, betting: %s", sz.name, lang, where)
			}
			noteShot(t, ana, dir, "table-"+sz.name+"-"+lang+"-betting", sz.w, sz.h, scale)
			click(t, ana, `[data-fk="bet-deal"]`)
			waitKey(t, ana, "ana's decision", "h")
			waitJS(t, ana, "box 1's hand in turn", `!!document.querySelector('.box[data-box="1"] .hand.current')`)
			if where := eval[string](t, ana, allInView+`(['.prompt:not([hidden]) button.act-hit', '.prompt:not([hidden]) [role=timer]'])`); where != "" {
				t.Errorf("%s %s, her turn: %s", sz.name, lang, where)
			}
			noteShot(t, ana, dir, "table-"+sz.name+"-"+lang+"-turn", sz.w, sz.h, scale)
			click(t, ana, `.prompt button.act-hit`) // 21 stands (VE-06)
			waitKey(t, ana, "ana's decision at box 4", "s")
			press(t, ana, "stand at box 4", "s")
			waitJS(t, ana, "the betting open", `!!document.querySelector('.box[data-box="1"] .badge') && document.querySelector('.betting').classList.contains('open')`)
		}
	}

	// The pit's floor after ana's rounds, in Spanish.
	pit := g.tab(t)
	g.logs[pit] = watch(t, pit)
	login(t, pit, site, "pit")
	viewport(t, pit, 1366, 768, false)
	choose(t, pit, "es")
	open(t, pit, site, "/pit", "#floor")
	waitJS(t, pit, "ana rated on the floor", `!!document.querySelector('.floor-players li[data-player="ana"] .floor-rating') && /\d/.test(document.querySelector('.floor-win')?.textContent)`)
	noteShot(t, pit, dir, "pit-floor-1366x768-es", 1366, 768, 1)

	// The dealer's console at a table dealt from a physical shoe: ben's
	// bet, "no more bets" called, the console asks for box 1's card.
	lt := site.Table(t, "Madrid en vivo", "spain", limits("shoe", "physical", "player_cut", "false"))
	live := &game{site: site, table: lt, logs: g.logs}
	ben := live.join(t, "ben")
	sit(t, ben, 1)
	dora := staffLogin(t, live, "dora", "dealer")
	viewport(t, dora, 1366, 768, false)
	open(t, dora, site, live.path()+"/console", "#card-input")
	bet(t, ben, 1, 500)
	waitJS(t, dora, "ben's bet on the console", `document.querySelector('.console-table tr[data-box="1"]')?.textContent.includes('ben')`)
	click(t, dora, `[data-op="no-more-bets"]`)
	waitJS(t, dora, "box 1's card asked for", `document.getElementById('console-need').textContent.includes('box 1, hand 1')`)
	noteShot(t, dora, dir, "console-1366x768-en", 1366, 768, 1)
}
