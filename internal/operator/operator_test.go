package operator

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/wallet"
	"sabot/internal/wallet/specop"
)

// The kinds sabot sends are the ones docs/wallet.yaml lists, no more, no
// fewer (the debit kind insurance, sent as insure; the
// rollback kinds, sent as the record's kind).
func TestKindsInSpec(t *testing.T) {
	spec, err := specop.Load("../../docs/wallet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for schema, ours := range map[string][]string{"DebitRequest": DebitKinds, "CreditRequest": CreditKinds, "RollbackRequest": RollbackKinds} {
		if got := spec.Enum(schema, "kind"); !slices.Equal(got, ours) {
			t.Errorf("%s's kinds: docs/wallet.yaml %v, sabot %v", schema, got, ours)
		}
	}
}

// What a record stakes, and why it gives stakes back, as the operator's
// calls name them.
func TestStakeAndRollbackKinds(t *testing.T) {
	action := func(kind, act string) *sabot.LogRecord {
		return &sabot.LogRecord{Kind: kind, Payload: json.RawMessage(`{"round":3,"action":{"action":"` + act + `","player":"@ana","box":1}}`)}
	}
	for _, tc := range []struct {
		rec            *sabot.LogRecord
		stake, rollbck string
	}{
		{&sabot.LogRecord{Kind: sabot.LogBet, Payload: json.RawMessage(`{"player":"@ana","box":1,"stake":100}`)}, KindBet, KindReturned},
		{action(sabot.LogAction, "double"), KindDouble, KindVoid},
		{action(sabot.LogAction, "split"), KindSplit, KindVoid},
		{action(sabot.LogTimeout, "challenge"), KindChallenge, KindVoid},
		{action(sabot.LogAction, "insure"), KindInsurance, KindVoid},
		{action(sabot.LogAction, "even-money"), KindInsurance, KindVoid},
		{action(sabot.LogAction, "hit"), KindBet, KindVoid},
		{&sabot.LogRecord{Kind: sabot.LogBetWithdraw, Payload: json.RawMessage(`{"player":"@ana","box":1}`)}, KindBet, KindWithdrawn},
		{&sabot.LogRecord{Kind: sabot.LogBetWithdraw, Payload: json.RawMessage(`{"player":"@ana","box":1,"reason":"the bank cannot cover it"}`)}, KindBet, KindReturned},
		{&sabot.LogRecord{Kind: sabot.LogVoid}, KindBet, KindVoid},
		{&sabot.LogRecord{Kind: sabot.LogLeave}, KindBet, KindReturned},
	} {
		if got := stakeKind(tc.rec); got != tc.stake {
			t.Errorf("%s %s: stake kind %q, want %q", tc.rec.Kind, tc.rec.Payload, got, tc.stake)
		}
		if got := rollbackKind(tc.rec); got != tc.rollbck {
			t.Errorf("%s %s: rollback kind %q, want %q", tc.rec.Kind, tc.rec.Payload, got, tc.rollbck)
		}
	}
}

// An operator's ID names a player at a table: 1 to 64 of letters, digits
// and . _ - :.
func TestCheckOperatorID(t *testing.T) {
	for _, ok := range []string{"ana", "P-1.2_3:x", strings.Repeat("a", 64)} {
		if err := checkOperatorID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", strings.Repeat("a", 65), "ana bel", "ana@x", "añ", "a/b"} {
		if err := checkOperatorID(bad); sabot.ErrorCode(err) != sabot.EINVALID {
			t.Errorf("%q: %v, want EINVALID", bad, err)
		}
	}
	if PlayerID("@ana") != "ana" || PlayerID("ana") != "" {
		t.Errorf("PlayerID: %q %q", PlayerID("@ana"), PlayerID("ana"))
	}
}

// Money owed is sent again after RetryRefused, each wait doubling up to an
// hour, for Retries tries; a negative setting leaves it to the pit.
func TestRetryRefusedPolicy(t *testing.T) {
	for _, tc := range []struct {
		first   time.Duration
		retries int
		want    []time.Duration // after try 1, 2, …
	}{
		{0, 0, []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute,
			time.Hour, time.Hour, time.Hour, 0, 0}},
		{time.Second, 3, []time.Duration{time.Second, 2 * time.Second, 0}},
		{-1, 0, []time.Duration{0, 0}},
		{time.Second, -1, []time.Duration{0}},
	} {
		o := New(Config{RetryRefused: tc.first, Retries: tc.retries})
		for i, want := range tc.want {
			if got := o.retryRefused(i + 1); got != want {
				t.Errorf("RetryRefused %v, Retries %d: after try %d wait %v, want %v", tc.first, tc.retries, i+1, got, want)
			}
		}
	}
}

// A refused credit is owed: the pit lists it with the operator's reason,
// resolves it only with a reason, and the resolution is a significant
// event; an item unknown or resolved is not found.
func TestOwedResolved(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	ans, _ := json.Marshal(wallet.Response{Status: wallet.StatusRefused, Reason: wallet.ReasonBlocked, Message: "your account may not play now"})
	r.out.add(sabot.WalletCall{ID: "c-1", TableID: 3, Op: wallet.OpCredit, Player: "ana", Round: "3-1", Kind: "settle", Amount: 2000,
		State: sabot.CallRefused, Answer: ans, Answered: r.now})
	owed, err := r.Owed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(owed) != 1 || owed[0].ID != "c-1" || owed[0].Player != "@ana" || owed[0].Amount != 2000 || owed[0].Reason != wallet.ReasonBlocked ||
		owed[0].Table != 3 || owed[0].NextRetry != nil {
		t.Fatalf("owed: %+v", owed)
	}
	pit := &sabot.User{ID: 1, Name: "pit"}
	if err := r.ResolveOwed(ctx, pit, "c-1", ResolveRequest{Reason: "  "}); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("resolved with no reason: %v", err)
	}
	if err := r.ResolveOwed(ctx, pit, "c-2", ResolveRequest{Reason: "x"}); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("an unknown item resolved: %v", err)
	}
	if err := r.ResolveOwed(ctx, pit, "c-1", ResolveRequest{Reason: "paid at the cashier"}); err != nil {
		t.Fatal(err)
	}
	if ev := r.seen("wallet-resolved"); len(ev) != 1 || ev[0].By != "pit" || ev[0].Memo != "c-1" || ev[0].Amount != 2000 ||
		ev[0].Text != "credit c-1 of 20.00 owed to ana resolved by pit: paid at the cashier" {
		t.Fatalf("the events: %+v", ev)
	}
	if owed, err := r.Owed(ctx); err != nil || len(owed) != 0 {
		t.Fatalf("owed after the resolution: %+v, %v", owed, err)
	}
	none := New(Config{})
	if _, err := none.Owed(ctx); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("owed with no wallet: %v", err)
	}
	if err := none.ResolveOwed(ctx, pit, "c-1", ResolveRequest{Reason: "x"}); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("resolved with no wallet: %v", err)
	}
}
