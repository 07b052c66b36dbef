package operator

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sabot"
	"sabot/internal/wallet"
)

// A call with no answer waits before its next try: doubling from a
// quarter of a second up to the cap, plus at most a fifth of jitter.
func TestRetryAfterAttempts(t *testing.T) {
	for _, most := range []time.Duration{30 * time.Second, time.Second, 100 * time.Millisecond} {
		base := min(retryFirst, most)
		for n := 1; n <= 12; n++ {
			for range 20 {
				got := retryAfterAttempts(n, most)
				if got < base || got > base+base/5 {
					t.Fatalf("after %d tries (cap %v): %v, want %v to %v", n, most, got, base, base+base/5)
				}
			}
			base = min(2*base, most)
		}
	}
}

// The deliverer sends what is due: a credit the operator takes is
// answered ok; one it does not answer waits for its next try; one it
// refuses is money owed, sent again by the policy, and the pit is told;
// the call that sends it again, taken, pays it.
func TestDeliverCalls(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	r.ref.AddPlayer("ana", "Ana", 1000)
	r.out.add(
		sabot.WalletCall{ID: "c-ok", TableID: 3, Op: wallet.OpCredit, Player: "ana", Round: "3-1", Kind: "settle", Amount: 200, Created: r.now},
		sabot.WalletCall{ID: "c-no", TableID: 3, Op: wallet.OpCredit, Player: "nobody", Round: "3-1", Kind: "settle", Amount: 50, Created: r.now},
		sabot.WalletCall{ID: "d-1", TableID: 3, Op: wallet.OpDebit, Player: "ana", Round: "3-2", Kind: "bet", Amount: 10, Created: r.now},
	)
	calls, err := r.out.ClaimCalls(ctx, r.now, deliverBatch, deliverLease)
	if err != nil || len(calls) != 2 {
		t.Fatalf("claimed %d calls (%v): the debit is the table's own", len(calls), err)
	}
	r.sendCalls(ctx, calls)
	if c := r.out.call("c-ok"); c.State != sabot.CallOK || r.ref.Balance("ana") != 1200 {
		t.Fatalf("the credit taken: %s, the operator holds %d", c.State, r.ref.Balance("ana"))
	}
	c := r.out.call("c-no")
	if c.State != sabot.CallRefused || !c.NextRetry.Equal(r.now.Add(DefaultRetryRefused)) {
		t.Fatalf("the credit refused: %s, next try %v", c.State, c.NextRetry)
	}
	if ev := r.seen("wallet-refused"); len(ev) != 1 || ev[0].User != "@nobody" || ev[0].Memo != "c-no" ||
		!strings.Contains(ev[0].Text, "0.50 owed to nobody; sent again at 2026-11-26T20:01:00Z (try 2)") {
		t.Fatalf("the events: %+v", ev)
	}
	if n := metric(t, r.m, `sabot_wallet_calls_total{op="credit",result="refused"}`); n != 1 {
		t.Fatalf("credits refused in the metrics: %v", n)
	}

	// Sent again, as the store's RetryOwed writes it, and taken.
	r.ref.AddPlayer("nobody", "Nobody", 0)
	r.out.add(sabot.WalletCall{ID: "c-no-2", RetryOf: "c-no", TableID: 3, Op: wallet.OpCredit, Player: "nobody", Round: "3-1", Kind: "settle", Amount: 50, Created: r.now})
	calls, _ = r.out.ClaimCalls(ctx, r.now, deliverBatch, deliverLease)
	r.sendCalls(ctx, calls)
	if ev := r.seen("wallet-paid"); len(ev) != 1 || ev[0].Memo != "c-no" || ev[0].Text != "credit c-no, refused, paid when sent again as c-no-2" {
		t.Fatalf("the events: %+v", ev)
	}

	// The operator does not answer: the call is tried again after the
	// backoff, its lease given back.
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusBadGateway) }))
	defer down.Close()
	r.cfg.Wallet = &wallet.Client{URL: down.URL, Secret: secret}
	r.out.add(sabot.WalletCall{ID: "r-1", TableID: 3, Op: wallet.OpRollback, Player: "ana", Round: "3-2", Kind: KindLapsed, Reference: "d-1", Amount: 10, Created: r.now})
	calls, _ = r.out.ClaimCalls(ctx, r.now, deliverBatch, deliverLease)
	r.sendCalls(ctx, calls)
	c = r.out.call("r-1")
	if wait := c.NextTry.Sub(r.now); c.State != sabot.CallPending || c.Attempts != 1 || wait < retryFirst || wait > retryFirst+retryFirst/5 {
		t.Fatalf("a rollback unanswered: %s after %d tries, next in %v", c.State, c.Attempts, wait)
	}
	if n := metric(t, r.m, `sabot_wallet_calls_total{op="rollback",result="no-answer"}`); n != 1 {
		t.Fatalf("rollbacks unanswered in the metrics: %v", n)
	}
}

// A credit or rollback unanswered past UndeliveredAfter is a significant
// event once per node; the gauges say how many, the oldest's age, and the
// money owed.
func TestUndelivered(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	old := r.now.Add(-2 * time.Minute)
	r.out.add(
		sabot.WalletCall{ID: "c-old", TableID: 3, Op: wallet.OpCredit, Player: "ana", Amount: 100, Created: old, Attempts: 7},
		sabot.WalletCall{ID: "c-new", TableID: 3, Op: wallet.OpCredit, Player: "ana", Amount: 100, Created: r.now.Add(-time.Second)},
		sabot.WalletCall{ID: "d-old", TableID: 3, Op: wallet.OpDebit, Player: "ana", Amount: 100, Created: old},
		sabot.WalletCall{ID: "c-owed", TableID: 3, Op: wallet.OpCredit, Player: "ben", Amount: 250, Created: old, State: sabot.CallRefused},
	)
	reported := map[string]bool{}
	for range 2 {
		r.checkUndelivered(ctx, reported, time.Minute)
	}
	if ev := r.seen("wallet-undelivered"); len(ev) != 1 || ev[0].Memo != "c-old" || ev[0].Text != "credit c-old unanswered for 2m0s (7 tries)" {
		t.Fatalf("the events: %+v", ev)
	}
	for name, want := range map[string]float64{"sabot_wallet_undelivered": 2, "sabot_wallet_undelivered_oldest_seconds": 120,
		"sabot_wallet_owed": 1, "sabot_wallet_owed_minor_units": 250} {
		if g := metric(t, r.m, name); g != want {
			t.Errorf("gauge %s: %v, want %v", name, g, want)
		}
	}
	// Answered since: forgotten, and reported again should it come back.
	r.out.AnswerCall(ctx, "c-old", sabot.CallOK, nil, r.now, time.Time{})
	r.checkUndelivered(ctx, reported, time.Minute)
	if reported["c-old"] || metric(t, r.m, "sabot_wallet_undelivered") != 1 {
		t.Fatalf("after the answer: reported %v, undelivered %v", reported, metric(t, r.m, "sabot_wallet_undelivered"))
	}
}

// metric is a metric's value as /metrics shows it (a line "name value";
// -1: no such line).
func metric(t *testing.T, m *Metrics, name string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.Collectors()...)
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for line := range strings.Lines(rec.Body.String()) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	return -1
}
