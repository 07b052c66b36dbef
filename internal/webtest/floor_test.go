package webtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sabot"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// The pit opens on the floor, not on its forms: each table's state, who
// plays at it with his rating today and his flags (a Block button beside
// each), today's house win against the house theoretical, and the alarms
// (a watch's significant event); the forms below. A player blocked from
// the floor leaves the table; the floor is in the page's language at
// every size.
func TestPitOpensOnTheFloor(t *testing.T) {
	site := MustStart(t, slow)
	ctx := context.Background()
	tb := site.Table(t, "Vegas", "vegas-s17", limits())
	ana := seatedClient(t, site, "ana", tb, 1)
	// ana's blackjack against 6 and 10: the house loses 15.00.
	site.Force(t, tb, "AS 6D KH TD")
	if _, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 10*time.Second, "the round over", func() bool {
		v, err := ana.Table(ctx, tb)
		return err == nil && v.Round != nil && v.Round.Phase == "done"
	})
	// An alarm: the count watch's significant event about ana, as a
	// table's actor writes it (internal/actor/rtpwatch.go), in the system
	// log the credit made.
	alarm(t, site, wire.AdminEvent{Event: "advantage-play", User: "ana", Table: tb, Round: 1,
		Text:  fmt.Sprintf("ana's bets follow the count at table %d: over his 60 rounds, Hi-Lo z = 4.10, Hi-Opt II z = 3.90 (flagged at 3.8)", tb),
		Count: &wire.CountValues{Rounds: 60, HiLoZ: 4.1, HiOptIIZ: 3.9}})

	browser := Browser(t, 1366, 768)
	pit := Player(t, browser)
	watch(t, pit)
	login(t, pit, site, "pit")
	click(t, pit, `.nav a[href="/pit"]`)
	card := `.floor-table[data-table="` + itoa(tb) + `"]`
	me := card + ` .floor-players li[data-player="ana"]`
	waitJS(t, pit, "the table on the floor", `!!document.querySelector('`+me+`')`)

	// The page opens on the floor: its heading and the table in the first
	// screen, the forms below it.
	if where := eval[string](t, pit, allInView+`(['#floor-h', '`+card+` h3', '`+me+` button[data-op="block"]'])`); where != "" {
		t.Errorf("the floor is not the first screen: %s", where)
	}
	if !eval[bool](t, pit, `document.getElementById('floor').getBoundingClientRect().bottom <= document.getElementById('credit').getBoundingClientRect().top`) {
		t.Error("the forms are above the floor")
	}
	// One call reads the floor's players and tables' days (GET
	// /api/admin/floor), not a search of /api/admin/players for each
	// seated player nor the tables report.
	if n := eval[int](t, pit, `performance.getEntriesByType('resource').filter(e => e.name.includes('/api/admin/players?')).length`); n != 0 {
		t.Errorf("the floor searched /api/admin/players %d times", n)
	}
	if n := eval[int](t, pit, `performance.getEntriesByType('resource').filter(e => e.name.includes('/api/admin/floor')).length`); n < 1 {
		t.Error("the floor did not read /api/admin/floor")
	}
	waitJS(t, pit, "today's win against the theoretical", `document.querySelector('`+card+` .floor-win').innerText.startsWith('Today, 1 round: house win −15.00 against a house theoretical of ')`)
	// The table's day comes in the floor's answer too: no tables report.
	if n := eval[int](t, pit, `performance.getEntriesByType('resource').filter(e => e.name.includes('/api/admin/reports/tables')).length`); n != 0 {
		t.Errorf("the floor read /api/admin/reports/tables %d times", n)
	}
	if got := text(t, pit, card+" .floor-state"); got != "between rounds · 1.00 – 1,000.00" {
		t.Errorf("the table's state: %q", got)
	}
	if got := text(t, pit, me+" .floor-rating"); !strings.HasPrefix(got, "1 round today, average bet 10.00, house win −15.00 (theoretical ") {
		t.Errorf("ana's rating: %q", got)
	}
	if got := text(t, pit, me+" .floor-flags"); got != "ADVANTAGE PLAY" && got != "advantage play" {
		t.Errorf("ana's flags: %q, want advantage play", got)
	}
	waitJS(t, pit, "the alarm", `[...document.querySelectorAll('#floor-alarms li[data-alarm="advantage-play"]')].some(li => li.innerText.includes('Vegas') && li.innerText.includes('ana'))`)
	if got := eval[string](t, pit, `document.querySelector('`+me+` button[data-op="block"]').getAttribute('aria-label')`); got != "Block ana" {
		t.Errorf("the Block button's name: %q", got)
	}

	// In every language, at every size.
	for _, lang := range []string{"es", "it", "en"} {
		choose(t, pit, lang)
		waitJS(t, pit, "the floor in "+lang, `document.documentElement.lang === '`+lang+`' && !!document.querySelector('`+me+`')`)
		want := map[string]string{"es": "La sala", "it": "La sala", "en": "The floor"}[lang]
		if got := text(t, pit, "#floor-h"); got != want {
			t.Errorf("%s: the floor's heading %q, want %q", lang, got, want)
		}
		today := map[string]string{"es": "Hoy, 1 jugada: ganancia de la casa −15,00", "it": "Oggi, 1 colpo: vincita del banco −15,00", "en": "Today, 1 round: house win −15.00"}[lang]
		waitJS(t, pit, "today's win in "+lang, `document.querySelector('`+card+` .floor-win').innerText.startsWith('`+today+`')`)
		for _, sz := range []struct {
			name string
			w, h int64
		}{{"1920x1080", 1920, 1080}, {"1366x768", 1366, 768}, {"1280x800", 1280, 800}, {"phone-360x640", 360, 640}} {
			viewport(t, pit, sz.w, sz.h, sz.w < 400)
			if sz.w < 400 { // a phone's page drawn anew at its size
				do(t, pit, "reload", chromedp.Reload())
				waitJS(t, pit, "the floor again", `!!document.querySelector('`+me+`')`)
			}
			if where := eval[string](t, pit, allInView+`(['#floor-h', '`+card+` h3'])`); where != "" {
				t.Errorf("%s at %s: the floor is not the first screen: %s", lang, sz.name, where)
			}
			if eval[bool](t, pit, `document.documentElement.scrollWidth > innerWidth + 1`) {
				t.Errorf("%s at %s: the page scrolls sideways (%d px wide)", lang, sz.name, eval[int](t, pit, `document.documentElement.scrollWidth`))
			}
			sizeShot(t, pit, "pit-floor-"+sz.name+"-"+lang)
		}
		viewport(t, pit, 1366, 768, false)
	}

	// Blocked from the floor: the block takes her from the table.
	eval[bool](t, pit, `(() => { window.prompt = () => 'chip dumping'; return true })()`)
	click(t, pit, me+` button[data-op="block"]`)
	waitJS(t, pit, "ana blocked from the floor", `document.querySelector('.pit-status').innerText.startsWith('ana is blocked')`)
	waitJS(t, pit, "ana gone from the table", `!document.querySelector('`+me+`') && document.querySelector('`+card+`').innerText.includes('Nobody seated.')`)
	if !eval[bool](t, pit, `[...document.querySelectorAll('#floor-alarms li[data-alarm="advantage-play"]')].some(li => li.innerText.includes('ana'))`) {
		t.Error("the alarm left the floor with her")
	}

}

// alarm writes a watch's significant event to the site's system log, as
// a table's actor does.
func alarm(t *testing.T, site *Site, p wire.AdminEvent) {
	t.Helper()
	ctx := context.Background()
	ts, err := site.Store.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sys int64
	for _, x := range ts {
		if x.Profile == "" {
			sys = x.ID
		}
	}
	if sys == 0 {
		t.Fatal("no system log")
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := site.Store.Append(ctx, sabot.Appending(&sabot.LogRecord{TableID: sys, Kind: sabot.LogAdmin, Payload: b, Created: time.Now()}), nil); err != nil {
		t.Fatal(err)
	}
}
