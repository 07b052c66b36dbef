package server_test

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"strconv"
	"testing"

	"sabot"
	"sabot/internal/recall"
	"sabot/internal/wire"
	"sabot/money"
)

// An administrator's credit of 2^63-1 was accepted
// and overflowed the balances (SQLite turned them into REALs, PostgreSQL
// answered 500). Every amount is bounded by money.Max: a credit
// beyond it, or one that would take a wallet beyond it, is refused as
// invalid (400) with its reason, and changes nothing.
func TestCreditOverflowRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	ana := h.player("ana", 1000)
	events := func() int {
		return len(must(recall.Events(ctx, h.st, recall.EventQuery{Limit: 1000})))
	}
	before := events()
	unchanged := func(want int64) {
		t.Helper()
		if w := wallet(t, ana); w != want {
			t.Fatalf("wallet %d, want %d", w, want)
		}
		if n := events(); n != before {
			t.Fatalf("%d significant events, want %d: a refused credit was logged", n, before)
		}
		checkLedger(t, h.st)
	}

	// Over HTTP, as the finding sent it: 400 invalid.
	body := []byte(`{"command_id":"big","user":"ana","amount":9223372036854775807}`)
	req, _ := http.NewRequestWithContext(ctx, "POST", h.srv.URL()+"/api/admin/credit", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+h.admin.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a credit of 2^63-1: HTTP %d, want 400", resp.StatusCode)
	}
	unchanged(1000)
	for _, amount := range []money.Amount{math.MaxInt64, money.Max + 1} {
		wantCode(t, h.admin.Credit(ctx, "ana", amount), sabot.EINVALID, "at most "+strconv.FormatInt(int64(money.Max), 10))
		unchanged(1000)
	}

	// Up to the bound, then one more minor unit is refused.
	must(0, h.admin.Credit(ctx, "ana", money.Max-1000))
	before = events()
	unchanged(int64(money.Max))
	wantCode(t, h.admin.Credit(ctx, "ana", 1), sabot.EINVALID, "beyond the most a wallet may hold")
	unchanged(int64(money.Max))
}

// A stake beyond the bound never reaches the table or
// the ledger: 400 invalid, nothing placed.
func TestStakeOverflowRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	for _, stake := range []money.Amount{math.MaxInt64, money.Max + 1, math.MinInt64} {
		_, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: stake})
		wantCode(t, err, sabot.EINVALID, "beyond the most an amount may be")
	}
	if v := must(ana.Table(ctx, tb)); len(v.Bets) != 0 {
		t.Fatalf("bets %+v", v.Bets)
	}
	if w := wallet(t, ana); w != 1000 {
		t.Fatalf("wallet %d", w)
	}
	checkLedger(t, h.st)
}

// Table limits under which one stake could win beyond
// the bound are refused, at creation and by a configuration change.
func TestLimitsOverflowRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	big := map[string]string{"max_bet": strconv.FormatInt(1<<40, 10), "blackjack_pays": "1000:1"}
	_, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "big", Profile: "vegas-s17", Options: big})
	wantCode(t, err, sabot.EINVALID, "beyond the most an amount may be")
	tb := h.table("vegas-s17", true, nil)
	_, err = h.admin.Command(ctx, tb, "configure", wire.CommandRequest{Options: big})
	wantCode(t, err, sabot.EINVALID, "beyond the most an amount may be")
	if v := must(h.admin.Table(ctx, tb)); len(v.Options) != 0 {
		t.Fatalf("options %v after a refused change", v.Options)
	}
}

// A stake and a credit are money.Amount in the bodies,
// a JSON number as before: one that is not an integer, or beyond an
// int64, is refused as it was (400 invalid, a bad JSON body), and changes
// nothing.
func TestAmountsNotIntegersRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	hc := &http.Client{}
	bet := h.srv.URL() + "/api/tables/" + strconv.FormatInt(tb, 10) + "/bet"
	credit := h.srv.URL() + "/api/admin/credit"
	for _, c := range []struct{ url, token, body string }{
		{bet, ana.Token, `{"command_id":"f1","box":1,"stake":100.5}`},
		{bet, ana.Token, `{"command_id":"f2","box":1,"stake":1e3}`},
		{bet, ana.Token, `{"command_id":"f3","box":1,"stake":9223372036854775808}`},
		{credit, h.admin.Token, `{"command_id":"f4","user":"ana","amount":0.5}`},
		{credit, h.admin.Token, `{"command_id":"f5","user":"ana","amount":-9223372036854775809}`},
	} {
		a := send(t, hc, "POST", c.url, "application/json", c.body, "Bearer "+c.token)
		wantAnswer(t, c.body, a, http.StatusBadRequest, sabot.EINVALID, "bad JSON body: json: cannot unmarshal number")
	}
	if v := must(ana.Table(ctx, tb)); len(v.Bets) != 0 {
		t.Fatalf("bets %+v", v.Bets)
	}
	if w := wallet(t, ana); w != 1000 {
		t.Fatalf("wallet %d", w)
	}
}
