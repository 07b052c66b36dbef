package actor

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"sabot"
	"sabot/engine"
	"sabot/internal/wire"
	"sabot/money"
)

// downStore is a store whose reads of the log fail while down: the
// database does not answer (a primary being replaced).
type downStore struct {
	sabot.Store
	down bool
	// settles: while down, the settlements' appends fail too (the
	// connection lost before their commit); the other appends go through.
	settles bool
}

func (s *downStore) Append(ctx context.Context, rec *sabot.LogAppend, ps []sabot.Posting) (bool, error) {
	if s.down && s.settles && rec.Kind == sabot.LogSettle {
		return false, s.unavailable()
	}
	return s.Store.Append(ctx, rec, ps)
}

func (s *downStore) unavailable() error {
	return &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "the database is unavailable (test)"}
}

func (s *downStore) Log(ctx context.Context, table, from int64) ([]*sabot.LogRecord, error) {
	if s.down {
		return nil, s.unavailable()
	}
	return s.Store.Log(ctx, table, from)
}

func (s *downStore) Find(ctx context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	if s.down {
		return nil, s.unavailable()
	}
	return s.Store.Find(ctx, q)
}

// A rebuild whose log read fails (the database switching primaries) left
// the actor with no table and the next step dereferenced it: the node
// panicked and died with its tables (found by scripts/ha-switch.sh's gate: 587 decisions
// counted of 627 acknowledged: the dead node's counter went with it). Now
// the table answers 503 with a retry hint while it cannot rebuild, tries
// again on its timer, and once the database answers serves the state its
// log holds.
func TestFailedRebuildAnswers503AndRetries(t *testing.T) {
	ctx := context.Background()
	for _, every := range []int{-1, 5} {
		p := newPlayedTable(t, "vegas-s17", nil, every)
		ana, ben := p.player(t, "ana"), p.player(t, "ben")
		p.rounds(t, 3)
		p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: money.Amount(100)}) // a bet down: the betting window's timer
		want := p.a.stateJSON(t)
		ds := &downStore{Store: p.st, down: true}
		p.s.Store = ds

		p.a.rebuild(ctx) // panicked: a nil table's bets
		if p.a.unloaded == nil || p.a.timer.kind != rebuildTimer {
			t.Fatalf("every %d: after a failed rebuild: unloaded %v, timer %d (want the rebuild's)", every, p.a.unloaded, p.a.timer.kind)
		}
		cmdNo++
		r := p.a.handle(ctx, testCommand(t, wire.OpBet, ben, ben.Name, "b1", wire.CommandRequest{Box: 2, Stake: money.Amount(200)}))
		var se *sabot.Error
		if !errors.As(r.err, &se) || se.Code != sabot.EUNAVAILABLE || se.RetryAfter <= 0 {
			t.Fatalf("every %d: a bet at a table not rebuilt: %v, want 503 unavailable with a retry hint", every, r.err)
		}
		if v := p.a.view(); v.ID != p.a.cfg.ID {
			t.Errorf("every %d: the view of a table not rebuilt: %+v", every, v)
		}
		p.a.expire(ctx) // the timer fires, the database still down
		if p.a.unloaded == nil || p.a.timer.kind != rebuildTimer {
			t.Fatalf("every %d: a second failed rebuild: unloaded %v, timer %d", every, p.a.unloaded, p.a.timer.kind)
		}

		ds.down = false
		p.a.expire(ctx)
		if p.a.unloaded != nil {
			t.Fatalf("every %d: not rebuilt once the database answers: %v", every, p.a.unloaded)
		}
		if got := p.a.stateJSON(t); got != want {
			t.Errorf("every %d: rebuilt\n%s\nwant\n%s", every, got, want)
		}
		if r := p.a.handle(ctx, testCommand(t, wire.OpBet, ben, ben.Name, "b1", wire.CommandRequest{Box: 2, Stake: money.Amount(200)})); r.err != nil {
			t.Errorf("every %d: the bet sent again after the rebuild: %v", every, r.err)
		}
	}
}

// A player's decision applied, whose settlement then fails with the
// database and whose rebuild fails too: the command's answer is given, and
// what the loop does after it (a snapshot due between rounds) found no
// table and panicked the node (the HA gate's second crash). The table
// answers 503 until the database answers, then replays the decision and
// settles the round.
func TestDecisionWhoseSettlementAndRebuildFail(t *testing.T) {
	ctx := context.Background()
	p := newPlayedTable(t, "vegas-s17", nil, 1) // a snapshot due after every round
	ana := p.player(t, "ana")
	p.rounds(t, 2)
	ds := &downStore{Store: p.st, settles: true}
	p.s.Store = ds
	for try := 0; ; try++ {
		if try == 50 {
			t.Fatal("no round in 50 with a stand of ana's that settles it")
		}
		rounds := p.a.t.RoundNo()
		p.do(t, ana, wire.OpBet, wire.CommandRequest{Box: 1, Stake: money.Amount(100)})
		for p.a.dealt && p.a.t.Round().Phase() != engine.Playing {
			p.a.expire(ctx) // a window closes
		}
		if !p.a.dealt {
			continue // over at once (a blackjack)
		}
		r := p.a.t.Round()
		box, hand := r.Current()
		if box != 1 || !r.Legal(engine.Action{Kind: engine.Stand, Player: ana.Name, Box: box, Hand: hand}) {
			t.Fatalf("round %d: ana's turn to stand expected, box %d hand %d", rounds+1, box, hand)
		}
		ds.down = true
		cmdNo++
		res := p.a.handle(ctx, testCommand(t, wire.OpAct, ana, ana.Name, fmt.Sprint("stand", cmdNo), wire.CommandRequest{Action: "stand", Box: box, Hand: hand}))
		if res.err != nil {
			t.Fatalf("the stand: %v", res.err)
		}
		if p.a.unloaded == nil {
			t.Fatalf("the settlement failed and the rebuild too: unloaded is nil")
		}
		ds.down = false
		p.a.expire(ctx) // the rebuild's timer
		if p.a.unloaded != nil {
			t.Fatalf("not rebuilt once the database answers: %v", p.a.unloaded)
		}
		for p.a.dealt {
			p.a.expire(ctx) // the round settles from its log
		}
		if p.a.t.RoundNo() != rounds+1 {
			t.Errorf("after the rebuild: round %d, want %d", p.a.t.RoundNo(), rounds+1)
		}
		return
	}
}
