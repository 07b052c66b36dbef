package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/wire"
)

// Bots play whole sessions over the real protocol on profiles with
// windows (the Desafío, declarations, insurance, back bettors' answers);
// every round is paid, the ledger balances, the metrics count them.
func TestBotsPlay(t *testing.T) {
	t.Parallel()
	for _, profile := range []string{"argentina", "spain", "venice", "family"} {
		t.Run(profile, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			h := newHarness(t, nil, actor.Timing{BetWindow: 50 * time.Millisecond, Decision: 2 * time.Second, Window: 300 * time.Millisecond})
			rep, err := client.RunBots(ctx, client.BotsConfig{URL: h.srv.URL(), AdminName: "pit", AdminPassword: password,
				Tables: 2, Players: 3, Rounds: 6, Profile: profile, Stake: 10})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Errors != 0 || rep.Rounds < 2*3*6 || rep.Decisions == 0 {
				t.Fatalf("%+v", rep)
			}
			checkLedger(t, h.st)
			resp, err := http.Get(h.srv.URL() + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			for _, l := range strings.Split(string(body), "\n") {
				if strings.HasPrefix(l, "sabot_decisions_total") || strings.HasPrefix(l, "sabot_rounds_total") {
					t.Log(l)
				}
			}
			t.Logf("%+v", rep)
			if !strings.Contains(string(body), `sabot_rounds_total{result="settled"}`) || !strings.Contains(string(body), "sabot_command_seconds_bucket") {
				t.Fatalf("metrics:\n%.2000s", body)
			}
			// The store's group commit: transactions, their appends, the decisions' waits.
			for _, name := range []string{"sabot_decision_seconds_count", "sabot_store_commit_seconds_count", "sabot_store_commit_appends_count", "sabot_store_decision_wait_seconds_count"} {
				if n := metricValue(string(body), name); n <= 0 {
					t.Errorf("%s = %v, want > 0", name, n)
				}
			}
			// Every decision applied is timed by the server (declines too).
			if n, acts := metricValue(string(body), "sabot_decision_seconds_count"), metricValue(string(body), `sabot_decisions_total{by="player"}`); n < acts || n < float64(rep.Decisions) {
				t.Errorf("%v decisions timed by the server; %v applied, %d timed by the bots", n, acts, rep.Decisions)
			}
			if commits, appends := metricValue(string(body), "sabot_store_commit_appends_count"), metricValue(string(body), "sabot_store_commit_appends_sum"); appends < commits {
				t.Errorf("%v appends in %v commits", appends, commits)
			}
		})
	}
}

// A record the store fails to write leaves nothing half done: a refused
// bet changes nothing; a deal whose record failed is rebuilt from the log
// and dealt again when the betting window closes.
func TestStoreFailureRebuilds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := newMemStore()
	h := newHarness(t, st, actor.Timing{BetWindow: 100 * time.Millisecond, Decision: time.Minute, Window: time.Minute})
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 9H 7C 8D"}))
	boom := errors.New("disk full")
	st.failAppend(0, boom)
	ana.Resends = -1 // the first answer
	_, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100})
	wantCode(t, err, sabot.EINTERNAL, "internal error")
	if v := must(ana.Table(ctx, tb)); len(v.Bets) != 0 || wallet(t, ana) != 1000 {
		t.Fatalf("after a failed bet: %+v", v.Bets)
	}
	st.failAppend(1, boom) // the bet is written, the deal is not
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	eventually(t, "the round dealt again", func() bool {
		v := must(ana.Table(ctx, tb))
		return v.Round != nil && v.Round.Phase == "playing"
	})
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	v := waitRound(t, ana, tb, 1)
	if got := strings.Join(v.Round.Dealer.Cards, " "); got != "9H 8D" {
		t.Fatalf("dealer %s", got)
	}
	checkLedger(t, st)
}

// metricValue is the value of an unlabelled metric in a Prometheus text
// exposition (-1 if absent).
func metricValue(body, name string) float64 {
	for _, l := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err == nil {
				return f
			}
		}
	}
	return -1
}

// A command the store failed (unavailable: a transaction the database
// ended, a primary being replaced) is sent again by the bot under its
// command ID after it asked for the table again: the bots play their
// rounds without an error, and the ledger balances.
func TestBotsResendWhatTheStoreFailed(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := newMemStore()
	h := newHarness(t, st, actor.Timing{BetWindow: 50 * time.Millisecond, Decision: 2 * time.Second, Window: 300 * time.Millisecond})
	st.mu.Lock()
	st.failCmds = 7
	st.mu.Unlock()
	rep, err := client.RunBots(ctx, client.BotsConfig{URL: h.srv.URL(), AdminName: "pit", AdminPassword: password,
		Tables: 2, Players: 3, Rounds: 5, Profile: "vegas-s17", Stake: 10})
	if err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	failed := st.cmdAppends / st.failCmds
	st.mu.Unlock()
	if failed == 0 || rep.Errors != 0 || rep.Rounds < 2*3*5 {
		t.Fatalf("%d commands failed by the store; bots: %+v", failed, rep)
	}
	checkLedger(t, st)
}

// Bots slower than the table's timers (a decision, a window closed before
// their answer arrives) meet a table that has gone on: the refusal of a
// decision sent before the event that moved the table is a race the bot
// takes calmly (its Races), not an error; the rounds go on by the timers
// and the ledger balances.
func TestBotsTakeRacesCalmly(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	h := newHarness(t, nil, actor.Timing{BetWindow: 50 * time.Millisecond, Decision: 40 * time.Millisecond, Window: 40 * time.Millisecond})
	rep, err := client.RunBots(ctx, client.BotsConfig{URL: h.srv.URL(), AdminName: "pit", AdminPassword: password,
		Tables: 1, Players: 3, Rounds: 4, Profile: "venice", Stake: 10, Think: 80 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Races == 0 || rep.Rounds < 3*4 {
		t.Fatalf("bots slower than the timers: %+v", rep)
	}
	checkLedger(t, h.st)
}
