package report

import (
	"math"
	"testing"

	"sabot/analysis"
	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

func cardsOf(t *testing.T, s string) []card.Card {
	t.Helper()
	c, err := analysis.ParseRanks(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A decision is valued for the player's hand against the up card from the
// shoe less the cards seen before the round and the other boxes' cards, and
// costs the gap to the best decision times his stake: standing on 6,5
// against a 6 is an error, doubling is not, and another player's decision
// is not his.
func TestValueDecisions(t *testing.T) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	// Deal order: box 1, box 2, the up card, box 1, box 2, the hole card.
	cards := cardsOf(t, "6,T,6,5,8,T,9,9")
	seen := cardsOf(t, "T,T,T,T,2,3")
	bets := []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 1000}, {Player: "bea", Box: 2, Stake: 500}}
	rec := func(first engine.Kind) engine.Record {
		return engine.Record{Cards: cards, Bets: bets, CutAfter: -1, Actions: []engine.Action{
			{Kind: first, Player: "ana", Box: 1, Hand: 1},
			{Kind: engine.Stand, Player: "bea", Box: 2, Hand: 1},
		}}
	}
	want, err := analysis.HandValues(p, cardsOf(t, "6")[0], cardsOf(t, "6,5"), analysis.EVOptions{Removed: append(append([]card.Card(nil), seen...), cardsOf(t, "T,8")...)})
	if err != nil {
		t.Fatal(err)
	}
	stood := valueDecisions(p, rec(engine.Stand), seen, "ana")
	if stood.decisions != 1 || stood.errors != 1 || math.Abs(stood.cost-(*want.Double-*want.Stand)*1000) > 1e-6 {
		t.Errorf("stand on 11 v 6: %+v, want one error costing %.4f", stood, (*want.Double-*want.Stand)*1000)
	}
	if stood.cost < 300 { // doubling 11 against a 6 is worth more than 0.3 units over standing
		t.Errorf("stand on 11 v 6 costs %.1f of a 1000 stake", stood.cost)
	}
	doubled := valueDecisions(p, rec(engine.Double), seen, "ana")
	if doubled.decisions != 1 || doubled.errors != 0 || doubled.cost != 0 {
		t.Errorf("double on 11 v 6: %+v, want no error", doubled)
	}
	if bea := valueDecisions(p, rec(engine.Stand), seen, "bea"); bea.decisions != 1 || bea.errors != 0 {
		t.Errorf("bea stands on T,8 v 6: %+v", bea)
	}
}
