package actor

import (
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"sabot/internal/wire"
)

// The events one command causes reach a subscriber as one batch, in the
// order of their sequence numbers, before the command is answered: its
// socket writes them at once. So do those of a timer (the betting window
// that deals, the decision that runs out and settles).
func TestEventsOfACommandInOneBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		timing := Timing{BetWindow: 15 * time.Second, Decision: 30 * time.Second, Window: 10 * time.Second, KeepBetWindow: true}
		p, ctx := timedTable(t, timing, "vegas-s17", map[string]string{"min_bet": "100", "max_bet": "100000"})
		eve := p.player(t, "eve")
		p.send(t, ctx, eve, wire.OpSit, wire.CommandRequest{Box: 1})
		// eve TS 8H = 18; the dealer 9D 7C = 16, draws 5S: 21.
		p.send(t, ctx, stepsPit, wire.OpForceCards, wire.CommandRequest{Cards: "TS 9D 8H 7C 5S"})
		sub := NewSubscriber(64)
		if err := p.a.Subscribe(ctx, sub, 0, ""); err != nil {
			t.Fatal(err)
		}
		var seq int64
		batch := func(what string) [][]byte {
			t.Helper()
			select {
			case b := <-sub.C():
				sub.Taken(b)
				for _, data := range b {
					var m wire.Message
					if err := json.Unmarshal(data, &m); err != nil {
						t.Fatal(err)
					}
					if m.Type == wire.MsgEvent && m.Seq != seq+1 || m.Type == wire.MsgSnapshot && seq != 0 {
						t.Fatalf("%s: %s seq %d after seq %d", what, m.Type, m.Seq, seq)
					}
					seq = m.Seq
				}
				if len(sub.C()) != 0 {
					t.Fatalf("%s: %d more batches", what, len(sub.C()))
				}
				return b
			default:
				t.Fatalf("%s: no batch", what)
				return nil
			}
		}
		batch("the snapshot")
		p.send(t, ctx, eve, wire.OpBet, wire.CommandRequest{Box: 1, Stake: 500})
		if b := batch("the bet"); len(b) < 1 {
			t.Fatalf("the bet: %d events", len(b))
		}
		after(timing.BetWindow)
		if b := batch("the deal"); len(b) < 3 {
			t.Fatalf("the deal: %d events in its batch, want its cards and the turn together", len(b))
		}
		after(timing.Decision)
		if b := batch("the decision run out"); len(b) < 3 {
			t.Fatalf("the settlement: %d events in its batch, want the stand, the dealer's cards and the results together", len(b))
		}
		if q := sub.queued.Load(); q != 0 {
			t.Fatalf("%d messages counted as waiting, none left", q)
		}
	})
}

// A subscriber whose batches would pass its bound is dropped (its channel
// closed), a batch counting its messages, not one: a slow socket resyncs.
func TestSubscriberBoundCountsMessages(t *testing.T) {
	f := newFeed()
	sub := NewSubscriber(4)
	f.subs[sub] = struct{}{}
	f.hold()
	for range 3 {
		f.publish(wire.Event{Kind: "test"})
	}
	f.flush()
	if _, ok := f.subs[sub]; !ok || len(sub.ch) != 1 {
		t.Fatalf("3 messages of 4 allowed: subscribed %v, %d batches", ok, len(sub.ch))
	}
	f.hold()
	f.publish(wire.Event{Kind: "test"})
	f.publish(wire.Event{Kind: "test"})
	f.flush()
	if _, ok := f.subs[sub]; ok {
		t.Fatal("5 messages waiting, bound 4: the subscriber is not dropped")
	}
	if got := sub.drain(); len(got) != 3 {
		t.Fatalf("the dropped subscriber got %d messages, want the 3 before", len(got))
	}
	if _, ok := <-sub.C(); ok {
		t.Fatal("the dropped subscriber's channel is open")
	}
}
