package webtest

import (
	"context"
	"testing"
	"time"

	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/wire"
)

// The pit's reports page (issue 29): after rounds at a table, the
// administrator sees the table's win against its theoretical win and
// band, drawn in the chart, the player's rating and his bets against the
// count, in the page's language; a player is not shown the page.
func TestPitReports(t *testing.T) {
	site := MustStart(t, actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute})
	ctx := context.Background()
	tb := site.Table(t, "Vegas", "vegas-s17", nil)
	ana := &client.Client{URL: site.URL}
	if err := ana.Register(ctx, "ana", Password); err != nil {
		t.Fatal(err)
	}
	site.Credit(t, "ana", 100000)
	if _, err := ana.Login(ctx, "ana", Password); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		// ana's blackjack against 6 and 10: she wins 15.00 a round.
		site.Force(t, tb, "AS 6D KH TD")
		if _, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			v, err := ana.Table(ctx, tb)
			if err == nil && v.Round != nil && v.Round.No >= n && v.Round.Phase == "done" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d not over", n)
			}
		}
	}

	browser := Browser(t, 1280, 1000)
	pit := Player(t, browser)
	watch(t, pit) // an error in the page fails the test
	login(t, pit, site, "pit")
	click(t, pit, `.nav a[href="/pit/reports"]`)
	row := `.report-tables tr[data-table="` + itoa(tb) + `"]`
	waitJS(t, pit, "the table's row", `!!document.querySelector('`+row+`')`)
	if got := text(t, pit, row+" td.win"); got != "−30.00" {
		t.Errorf("the table's win: %q, want −30.00", got)
	}
	waitJS(t, pit, "the chart's dot and band", `!!document.querySelector('.win-chart g[data-table="`+itoa(tb)+`"] circle.actual') && !!document.querySelector('.win-chart g[data-table="`+itoa(tb)+`"] rect.band')`)
	waitJS(t, pit, "ana's rating", `!!document.querySelector('.report-players tr[data-player="ana"]')`)
	waitJS(t, pit, "ana's bets against the count", `!!document.querySelector('.report-advantage tr[data-player="ana"]') && !!document.querySelector('.count-bars rect.bet')`)

	// In Spanish.
	choose(t, pit, "es")
	waitJS(t, pit, "the page in Spanish", `document.querySelector('main h1').innerText === 'Los informes del Jefe de Mesa'`)

	// A player is not shown the page.
	player := Player(t, browser)
	login(t, player, site, "ana")
	open(t, player, site, "/pit/reports", "h1")
	if eval[bool](t, player, `!!document.querySelector('.nav a[href="/pit/reports"]') || !!document.querySelector('.report-tables table')`) {
		t.Fatal("a player is shown the reports")
	}
}
