package client

import (
	"context"
	"sabot/card"
	"sabot/internal/testwait"
	"testing"
	"time"

	"sabot/internal/wire"
)

// hiLo are the Hi-Lo tags by card value (Tags[1] the Ace).
var hiLo = [11]int{0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1}

// countingBot is a Hi-Lo counter at a one-deck table that has counted a
// round of an earlier shoe (its running count +3, 4 cards out).
func countingBot() *Bot {
	b := &Bot{Name: "counter", Box: 1, Count: &BotCount{Tags: hiLo, Decks: 1, Ramp: func(tc float64) int64 { return max(1, int64(tc)) },
		Deviate: func(tc float64, _ []card.Card, _ card.Card, legal func(string) bool) (string, bool) {
			return "stand", tc >= 1 && legal("stand")
		}}}
	var st botState
	for _, e := range []wire.Event{{Kind: "shoe", Shoe: "1-1"}, {Kind: "deal", ShoePos: 0}, {Kind: "card", Card: "2S"}, {Kind: "card", Card: "3S"},
		{Kind: "card", Card: "4S"}, {Kind: "card", FaceDown: true}} {
		b.onEvent(&st, &e)
	}
	if b.Count.running != 3 {
		panic("the counter's count before the snapshot")
	}
	return b
}

// view is a one-deck table's snapshot: remaining cards left in the shoe
// 1-shoe, and a round in play with these cards (the dealer's first).
func view(shoe string, remaining int, dealer []string, hand []string) *wire.TableView {
	v := &wire.TableView{Shoe: wire.ShoeView{ID: shoe, Remaining: remaining}}
	if dealer != nil {
		v.Round = &wire.RoundView{No: 2, Phase: "playing", Dealer: wire.HandView{Cards: dealer}, Hands: []wire.HandView{{Box: 1, Cards: hand}}}
		v.Turn = &wire.TurnView{Round: 2, Phase: "playing", Box: 1, Hand: 1, Players: []string{"counter"}, Cards: hand, Dealer: dealer[:1],
			Legal: []wire.Action{{Player: "counter", Box: 1, Hand: 1, Kind: "hit"}, {Player: "counter", Box: 1, Hand: 1, Kind: "stand"}}}
	}
	return v
}

// A counting bot that resubscribes by snapshot (a reconnection whose
// missed events the table no longer has, a late seat at a table already
// dealing) counts what the snapshot shows: at a new shoe it starts again
// from what has come out of it; where the snapshot shows every card dealt
// since the shuffle (the shoe's first round in play) it counts those;
// where cards came out that it never saw, its count is lost until the
// next shoe: it bets one unit and plays no index play, instead of betting
// and deviating on a stale count.
func TestCountResyncsBySnapshot(t *testing.T) {
	t.Run("new shoe, nothing dealt", func(t *testing.T) {
		b := countingBot()
		var st botState
		b.fromSnapshot(&st, view("1-2", 52, nil, nil))
		if c := b.Count; c.running != 0 || c.out+c.inRound != 0 || c.trueCount() != 0 {
			t.Fatalf("a new shoe: running %d, %d cards out, true count %.2f; want 0, 0, 0", c.running, c.out+c.inRound, c.trueCount())
		}
	})
	t.Run("new shoe, its first round in play", func(t *testing.T) {
		b := countingBot()
		var st botState
		// 5 cards out: the dealer's 5 and hole card, the hand's 2, 6, 3.
		b.fromSnapshot(&st, view("1-2", 47, []string{"5H", "??"}, []string{"2H", "6D", "3C"}))
		if c := b.Count; c.running != 4 || c.out+c.inRound != 5 {
			t.Fatalf("the shoe's first round in view: running %d, %d cards out; want 4 (5, 2, 6, 3), 5", c.running, c.out+c.inRound)
		}
		if a, ok := b.Count.deviate(st.turn, b.Name); !ok || a.Kind != "stand" {
			t.Fatalf("at a true count of %.2f the bot plays %v %v; want its index play", b.Count.trueCount(), a, ok)
		}
		// Its count goes on from there.
		b.onEvent(&st, &wire.Event{Kind: "card", Card: "KS"})
		if c := b.Count; c.running != 3 || c.out+c.inRound != 6 {
			t.Fatalf("a card after: running %d, %d cards out; want 3, 6", c.running, c.out+c.inRound)
		}
	})
	t.Run("same shoe, cards missed", func(t *testing.T) {
		b := countingBot()
		var st botState
		// 12 cards out, 5 in view: 7 came out that the bot never saw.
		b.fromSnapshot(&st, view("1-1", 40, []string{"5H", "??"}, []string{"2H", "6D", "3C"}))
		if u := b.Count.units(); u != 1 {
			t.Errorf("the count lost: a bet of %d units; want 1", u)
		}
		if a, ok := b.Count.deviate(st.turn, b.Name); ok {
			t.Errorf("the count lost: the index play %v", a)
		}
		// The next shoe is counted again.
		for _, e := range []wire.Event{{Kind: "settle"}, {Kind: "shoe", Shoe: "1-2"}, {Kind: "deal"}, {Kind: "card", Card: "2S"}, {Kind: "card", Card: "3S"}} {
			b.onEvent(&st, &e)
		}
		if c := b.Count; c.running != 2 || c.units() != 2 {
			t.Fatalf("the next shoe: running %d, %d units; want 2, 2", c.running, c.units())
		}
	})
}

// The bots of a crowd sit down together: each waits, after its first
// snapshot of the table, until every one has had its own, so that none
// finds a shoe begun without it.
func TestCrowdJoinsTogether(t *testing.T) {
	c := NewCrowd(2)
	first := make(chan struct{})
	go func() {
		c.join(context.Background())
		close(first)
	}()
	testwait.Until(t, 10*time.Second, "the first bot joined", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.joined == 1
	})
	select {
	case <-first:
		t.Fatal("the first bot went on before the second had its snapshot")
	default:
	}
	c.join(context.Background())
	<-first
}
