package webtest

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var screenshots = flag.String("screenshots", "", "write the README's screenshots (lobby and table, desktop and phone) to this directory, e.g. ../../docs/img")

// picture saves a screenshot of the page at a width (the phone's is
// emulated: 390 CSS pixels at 2x).
func picture(t *testing.T, ctx context.Context, name string, phone bool) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	if phone {
		do(t, ctx, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
		defer func() {
			if _, err := chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: false}); err != nil {
				t.Fatal(err)
			}
		}()
	}
	do(t, ctx, "settle the layout", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Sleep(400e6))
	if !phone {
		// No more than the page: a short page is not padded to the window.
		h := eval[int](t, ctx, `Math.ceil(Math.min(innerHeight, document.documentElement.scrollHeight, document.querySelector("main").getBoundingClientRect().bottom + 8))`)
		do(t, ctx, "fit the page", chromedp.EmulateViewport(1280, int64(h)))
		defer func() {
			if _, err := chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
				t.Fatal(err)
			}
		}()
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

// A table in play, as the README shows it: four players at a venice table,
// one of them a back bettor; the box holder of box 2 has split her eights
// and the back bettor followed; she has 11 on her first hand and must draw
// (VE-06): Hit and Double only.
func TestScreenshots(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow)
	tb := site.Table(t, "Venezia 1", "venice", limits("min_bet", "500", "max_bet", "50000"))
	site.Table(t, "Buenos Aires", "argentina", limits())
	site.Table(t, "Madrid", "spain", limits("min_bet", "1000", "max_bet", "200000"))
	site.Table(t, "Reference S17", "vegas-s17", limits("min_bet", "1000"))
	b := Browser(t, 1280, 1200)
	ana := b
	ben, cy, dora := Player(t, b), Player(t, b), Player(t, b)
	for name, ctx := range map[string]context.Context{"ana": ana, "ben": ben, "cy": cy, "dora": dora} {
		register(t, ctx, site, name)
		site.Credit(t, name, 250000)
	}
	path := "/tables/" + itoa(tb)
	for _, ctx := range []context.Context{ana, ben, cy, dora} {
		open(t, ctx, site, path, ".felt .box .plate")
	}
	sit(t, ana, 2)
	sit(t, ben, 4)
	sit(t, cy, 6)
	open(t, ana, site, "/", ".table-card")
	picture(t, ana, "lobby", false)
	picture(t, ana, "lobby-phone", true)
	open(t, ana, site, path, ".felt .box .plate")

	// box 2: 8S 8H (ana; dora behind), box 4: KD AC, box 6: 9C 7D; the dealer 6H.
	site.Force(t, tb, "8S KD 9C 6H 8H AC 7D 3D TS TC 9H 7S 5C")
	stake := func(ctx context.Context, box, chip string, n int, total string) {
		click(t, ctx, `.rack [data-fk="chip-`+chip+`"]`)
		for range n {
			click(t, ctx, `.box[data-box="`+box+`"] .spot.open`)
		}
		waitJS(t, ctx, "the bet on box "+box, `document.querySelector('.mybets')?.textContent.includes(': `+total+`')`)
	}
	stake(dora, "2", "500", 2, "10.00")
	stake(ana, "2", "2500", 1, "25.00")
	stake(ben, "4", "2500", 2, "50.00")
	click(t, cy, `.rack [data-fk="chip-500"]`)
	click(t, cy, `.box[data-box="6"] .spot.open`) // every seated player has bet: the deal
	waitJS(t, ana, "ana's turn", `!!document.querySelector('.prompt button.act-split')`)
	click(t, ana, `.prompt button.act-split`)
	waitJS(t, dora, "the follow window", `!!document.querySelector('.prompt button.act-split')`)
	click(t, dora, `.prompt button.act-split`)
	waitJS(t, ana, "ana's first hand at 11", `!!document.querySelector('.prompt button.act-hit') && !document.querySelector('.prompt button.act-stand')`)
	picture(t, ana, "table", false)
	picture(t, ana, "table-phone", true)
	// The same moment in Spanish and Italian, on a phone too.
	for _, l := range []struct{ lang, heading string }{{"es", "Su decisión"}, {"it", "La sua decisione"}} {
		choose(t, ana, l.lang)
		waitJS(t, ana, "the table in "+l.lang, `document.documentElement.lang === '`+l.lang+`' && document.querySelector('.prompt-h')?.textContent === '`+l.heading+`'`)
		picture(t, ana, "table-"+l.lang, false)
		picture(t, ana, "table-"+l.lang+"-phone", true)
	}
	choose(t, ana, "en")
	waitJS(t, ana, "the table in English", `document.querySelector('.prompt-h')?.textContent === 'Your decision'`)

	// ana draws to 21, then 18 on her second hand; cy busts; the dealer
	// makes 18. The replay of the round, at its end.
	click(t, ana, `.prompt button.act-hit`)
	waitJS(t, ana, "ana's second hand", `document.querySelector('.prompt-text')?.textContent.startsWith('Box 2 hand 2: 18')`)
	click(t, ana, `.prompt button.act-stand`)
	waitJS(t, cy, "cy's turn", `!!document.querySelector('.prompt:not([hidden]) button.act-hit')`)
	click(t, cy, `.prompt button.act-hit`)
	waitJS(t, ana, "the settlement", `!!document.querySelector('.box[data-box="4"] .badge.blackjack') && document.querySelector('.dealer .total').textContent === '18'`)
	picture(t, ana, "table-settled", false)
	open(t, ana, site, "/rounds/"+itoa(tb)+"-1", ".felt.replay")
	do(t, ana, "the replay's end", chromedp.KeyEvent(kb.End))
	waitJS(t, ana, "the end of the replay", `document.querySelector('.felt.replay .dealer .total').textContent === '18'`)
	picture(t, ana, "replay", false)

	// The account page: the player's limits (docs/players.md).
	open(t, dora, site, "/account", ".care-form")
	waitJS(t, dora, "the limits loaded", `!!document.querySelector('#care-reality option')`)
	do(t, dora, "a loss limit", chromedp.SetValue(chromedp.ID("care-kind"), "loss"), chromedp.SendKeys(chromedp.ID("care-amount"), "100"), chromedp.Click(chromedp.ID("care-set")))
	waitJS(t, dora, "the limit set", `document.querySelector('.care-limits li').textContent.startsWith('Losses: 100.00 a day')`)
	picture(t, dora, "account", false)

	// The pit, after the round: the tables and the significant events.
	pit := Player(t, b)
	login(t, pit, site, "pit")
	open(t, pit, site, "/pit", "#credit")
	waitJS(t, pit, "the events", `document.querySelectorAll('.pit-events tbody tr[data-kind]').length >= 8`)
	picture(t, pit, "pit", false)
}
