package engine

import (
	"math/rand/v2"
	"testing"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
	"sabot/shoe"
)

// shuffled returns a shuffled full shoe for a profile from a fixed seed.
func shuffled(p *rules.Profile, seed uint64) []card.Card {
	s := shoe.New(p.Decks, shoe.SeedFromUint64(seed))
	s.Shuffle()
	return s.Peek(s.Remaining())
}

// simple is a fixed, allocation-free strategy: declare an Ace 11 when the
// total is 17 or more and 1 otherwise, hit below 17 (or when the rules force
// it), double a two-card 10 or 11, split Aces and eights, and close every
// optional window.
func simple(r *Round) Action {
	switch r.Phase() {
	case ChallengeWindow, InsuranceWindow, FollowWindow, AceChoice:
		return Action{Kind: Close}
	}
	boxNo, hand := r.Current()
	holder := r.Holder(boxNo)
	h := &r.Hands(boxNo)[hand-1]
	a := Action{Player: holder, Box: boxNo, Hand: hand}
	if r.mustDeclare(h) {
		a.Kind, a.Value = Declare, 1
		if h.Count.Total() >= 17 {
			a.Value = 11
		}
		return a
	}
	if h.Count.N == 2 {
		c0, c1 := h.cards[0], h.cards[1]
		if c0.Rank() == c1.Rank() && (c0.IsAce() || c0.Rank() == card.Eight) {
			a.Kind = Split
			if r.Legal(a) {
				return a
			}
		}
		if t := h.Count.Total(); t == 10 || t == 11 {
			a.Kind = Double
			if r.Legal(a) {
				return a
			}
		}
	}
	a.Kind = Stand
	if h.Count.Total() < 17 || !r.Legal(a) {
		a.Kind = Hit
	}
	if !r.Legal(a) {
		a.Kind = Stand
	}
	return a
}

// randomPlayer plays uniformly among the legal actions.
func randomAction(r *Round, rng *rand.Rand, buf []Action) Action {
	legal := r.LegalActions(buf[:0])
	return legal[rng.IntN(len(legal))]
}

func mustPlay(t testing.TB, r *Round, next func(*Round) Action) {
	t.Helper()
	for i := 0; r.Phase() != Done; i++ {
		if i > 500 {
			t.Fatalf("round does not end")
		}
		a := next(r)
		if err := r.Act(a); err != nil {
			t.Fatalf("act %v: %v", a, err)
		}
	}
}

func sumNet(r *Round) (players, house money.Amount) {
	nets, house := r.Net()
	for _, n := range nets {
		players += n
	}
	return players, house
}
