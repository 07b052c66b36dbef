package actor

import (
	"context"
	"fmt"
	"sabot/internal/wire"
	"sabot/money"
	"testing"
	"time"

	"sabot"
)

// A walk-in is on the dealer's time, not an online
// player's. His box is not given up when SeatIdle runs out (an online
// player's is), and when his turn comes no decision timer runs to stand him:
// the round waits for the dealer's entry.
func TestWalkInOnTheDealersTime(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", map[string]string{"shoe": "physical", "player_cut": "false"}, -1)
	now := time.Now()
	p.s.Now = func() time.Time { return now }
	dora := &sabot.User{Name: "dora", PasswordHash: []byte("x"), Role: sabot.RoleDealer}
	if err := p.st.CreateUser(ctx, dora); err != nil {
		t.Fatal(err)
	}
	ana := p.player(t, "ana")
	p.do(t, ana, wire.OpSit, wire.CommandRequest{Box: 1})
	p.do(t, dora, wire.OpSeatWalkIn, wire.CommandRequest{Box: 2})
	p.do(t, dora, wire.OpBuyIn, wire.CommandRequest{Box: 2, Stake: 5000})
	walkIn := p.a.t.Holder(2)

	now = now.Add(p.s.timing().SeatIdle + time.Second)
	p.a.expireSeats(ctx)
	if p.a.t.Holder(1) != "" {
		t.Fatalf("ana's idle box 1 is still held by %q", p.a.t.Holder(1))
	}
	if p.a.t.Holder(2) != walkIn {
		t.Fatalf("the walk-in's box 2 was given up after %v: held by %q", p.s.timing().SeatIdle, p.a.t.Holder(2))
	}

	as := func(op string, body wire.CommandRequest) {
		t.Helper()
		cmdNo++
		c := testCommand(t, op, dora, "dora", fmt.Sprint(cmdNo), body)
		c.walkIn = body.WalkIn
		if r := p.a.handle(ctx, c); r.err != nil {
			t.Fatalf("%s: %v", op, r.err)
		}
	}
	as(wire.OpBet, wire.CommandRequest{Box: 2, Stake: 1000, WalkIn: 2})
	as(wire.OpNoMoreBets, wire.CommandRequest{})
	for _, card := range []string{"TS", "6D", "7C"} { // box 2 17 against a 6
		as(wire.OpCard, wire.CommandRequest{Card: card})
	}
	if tv := p.a.turn(); tv == nil || len(tv.Players) != 1 || tv.Players[0] != walkIn {
		t.Fatalf("the turn: %+v, want the walk-in's", tv)
	}
	if p.a.timer.kind == decisionTimer || p.a.view().Turn.Deadline != 0 {
		t.Fatalf("a decision timer runs on the walk-in's turn (deadline %d)", p.a.view().Turn.Deadline)
	}
}

// cash_approval holds over a shift, not per buy-in (the
// dealer alone sold three buy-ins of 9,000.00 under a 10,000.00
// threshold): a walk-in's buy-ins of the shift, and the dealer's own, are
// summed against it; past it the dealer's buy-in waits for the inspector.
// A new shift starts the sums again.
func TestCashApprovalOverAShift(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "spain", map[string]string{"shoe": "physical", "player_cut": "false"}, -1)
	now := time.Now()
	p.s.Now = func() time.Time { return now }
	dora := &sabot.User{Name: "dora", PasswordHash: []byte("x"), Role: sabot.RoleDealer}
	if err := p.st.CreateUser(ctx, dora); err != nil {
		t.Fatal(err)
	}
	buy := func(box int, stake int64) reply {
		cmdNo++
		return p.a.handle(ctx, testCommand(t, wire.OpBuyIn, dora, "dora", fmt.Sprint(cmdNo), wire.CommandRequest{Box: box, Stake: money.Amount(stake)}))
	}
	p.do(t, dora, wire.OpSeatWalkIn, wire.CommandRequest{Box: 1})
	p.do(t, dora, wire.OpSeatWalkIn, wire.CommandRequest{Box: 2})
	if r := buy(1, 900_000); r.err != nil || len(p.a.pending) != 0 {
		t.Fatalf("a first buy-in of 9,000.00: %+v, %d waiting", r, len(p.a.pending))
	}
	if r := buy(1, 900_000); r.err != nil || len(p.a.pending) != 1 {
		t.Fatalf("the walk-in's second 9,000.00 of the shift: %+v, %d waiting for the inspector, want 1", r, len(p.a.pending))
	}
	if r := buy(2, 200_000); r.err != nil || len(p.a.pending) != 2 {
		t.Fatalf("the dealer's sales of the shift past 10,000.00: %d waiting for the inspector, want 2", len(p.a.pending))
	}
	now = now.Add(p.s.cashShift())
	if r := buy(2, 900_000); r.err != nil || len(p.a.pending) != 2 {
		t.Fatalf("a new shift: %+v, %d waiting", r, len(p.a.pending))
	}
}
