package webtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sabot/internal/actor"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// The pit's reports page: after rounds at a table, the
// administrator sees the table's win against its theoretical win and
// band, drawn in the chart, the player's rating and his bets against the
// count, in the page's language; a player is not shown the page.
func TestPitReports(t *testing.T) {
	t.Parallel()
	site := MustStart(t, actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute})
	ctx := context.Background()
	tb := site.Table(t, "Vegas", "vegas-s17", nil)
	ana := seatedClient(t, site, "ana", tb, 1)
	for n := 1; n <= 3; n++ {
		// ana's blackjack against 6 and 10: she wins 15.00 a round; then
		// her 16 against a 10, which she stands on (an index play's hand:
		// the Illustrious 18's first, H16 v T at 0), and loses 10.00 to
		// the dealer's 17.
		cards := "AS 6D KH TD"
		if n == 3 {
			cards = "TS TD 6H 7C"
		}
		site.Force(t, tb, cards)
		if _, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}); err != nil {
			t.Fatal(err)
		}
		if n == 3 {
			if _, err := ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}); err != nil {
				t.Fatal(err)
			}
		}
		testwait.Until(t, 10*time.Second, fmt.Sprintf("round %d over", n), func() bool {
			v, err := ana.Table(ctx, tb)
			return err == nil && v.Round != nil && v.Round.No >= n && v.Round.Phase == "done"
		})
	}

	browser := Browser(t, 1280, 1000)
	pit := Player(t, browser)
	watch(t, pit) // an error in the page fails the test
	login(t, pit, site, "pit")
	click(t, pit, `.nav a[href="/pit/reports"]`)
	row := `.report-tables tr[data-table="` + itoa(tb) + `"]`
	waitJS(t, pit, "the table's row", `!!document.querySelector('`+row+`')`)
	// A test-mode table (forced cards) is counted, and marked.
	if !eval[bool](t, pit, `!!document.querySelector('`+row+` .tag.test-mode')`) {
		t.Errorf("the test-mode table's row is not marked: %q", text(t, pit, row))
	}
	if got := text(t, pit, row+" td.win"); got != "−20.00" {
		t.Errorf("the table's win: %q, want −20.00", got)
	}
	waitJS(t, pit, "the chart's dot and band", `!!document.querySelector('.win-chart g[data-table="`+itoa(tb)+`"] circle.actual') && !!document.querySelector('.win-chart g[data-table="`+itoa(tb)+`"] rect.band')`)
	waitJS(t, pit, "ana's rating", `!!document.querySelector('.report-players tr[data-player="ana"]')`)
	waitJS(t, pit, "ana's bets against the count", `!!document.querySelector('.report-advantage tr[data-player="ana"]') && !!document.querySelector('.count-bars rect.bet')`)
	// Her one decision at an index play's hand: she stood on 16 against
	// a 10 (the index play) at a true count below 0 (the two blackjack
	// rounds' A, 6, K, T twice and this round's T, T, 6 seen: −5), when
	// the count did not call for it; she bet behind no box.
	adv := `.report-advantage tr[data-player="ana"]`
	if got := text(t, pit, adv+" td.index"); got != "0/0 · 1/1" {
		t.Errorf("ana's index plays: %q, want 0/0 · 1/1", got)
	}
	if got := text(t, pit, adv+" td.back"); got != "—" {
		t.Errorf("ana's back bets: %q, want —", got)
	}

	// In Spanish.
	choose(t, pit, "es")
	waitJS(t, pit, "the page in Spanish", `document.querySelector('main h1').innerText === 'Los informes del Jefe de Mesa'`)
	waitJS(t, pit, "the index plays' column in Spanish", `[...document.querySelectorAll('.report-advantage th')].some(th => th.innerText === 'Jugadas de índice')`)

	// A player is not shown the page.
	player := Player(t, browser)
	login(t, player, site, "ana")
	open(t, player, site, "/pit/reports", "h1")
	if eval[bool](t, player, `!!document.querySelector('.nav a[href="/pit/reports"]') || !!document.querySelector('.report-tables table')`) {
		t.Fatal("a player is shown the reports")
	}
}

// A report that fails does not blank the others: the
// page runs each report as a job and draws each in its own section; here
// the players' job is refused by the server (an internal error injected in
// front of it) and its section shows the error while the tables' and the
// count's, asked before and after it, are drawn; in Spanish too.
func TestPitReportsOneFails(t *testing.T) {
	t.Parallel()
	site := MustStart(t, actor.Timing{BetWindow: time.Minute, Decision: time.Minute, Window: time.Minute})
	ctx := context.Background()
	tb := site.Table(t, "Vegas", "vegas-s17", nil)
	ana := seatedClient(t, site, "ana", tb, 1)
	site.Force(t, tb, "AS 6D KH TD")
	if _, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 10*time.Second, "the round over", func() bool {
		v, err := ana.Table(ctx, tb)
		return err == nil && v.Round != nil && v.Round.Phase == "done"
	})
	real := *site.handler.Load()
	var failed atomic.Int64
	var fail http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && r.URL.Path == "/api/admin/reports/jobs" {
			b, _ := io.ReadAll(r.Body)
			if strings.Contains(string(b), `"report":"players"`) {
				failed.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, `{"code":"internal","error":"the players' report failed (injected)"}`)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		real.ServeHTTP(w, r)
	})
	site.handler.Store(&fail)

	browser := Browser(t, 1280, 1000)
	pit := Player(t, browser)
	watch(t, pit)
	login(t, pit, site, "pit")
	click(t, pit, `.nav a[href="/pit/reports"]`)
	waitJS(t, pit, "the players' error", `!!document.querySelector('.report-players .report-error')`)
	if got := text(t, pit, ".report-players .report-error"); got != "This report failed: the players' report failed (injected)" {
		t.Errorf("the players' section: %q", got)
	}
	waitJS(t, pit, "the table's row and ana's bets against the count, drawn beside the error",
		`!!document.querySelector('.report-tables tr[data-table="`+itoa(tb)+`"]') && !!document.querySelector('.report-advantage tr[data-player="ana"]')`)
	if got := text(t, pit, `.report-tables tr[data-table="`+itoa(tb)+`"] td.win`); got != "−15.00" {
		t.Errorf("the table's win: %q, want −15.00", got)
	}
	choose(t, pit, "es")
	waitJS(t, pit, "the error in Spanish", `(document.querySelector('.report-players .report-error')||{}).innerText === "Este informe ha fallado: the players' report failed (injected)"`)
	if failed.Load() == 0 {
		t.Error("the players' job was never asked for")
	}
}
