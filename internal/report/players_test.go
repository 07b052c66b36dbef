package report

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"sabot/analysis"
	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

func cardsOf(t testing.TB, s string) []card.Card {
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
	p, seen, rec, want := elevenAgainstSix(t)
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

// Insurance and even money are valued from the shoe's composition, counted
// here by hand: with tens taken out of the shoe, P(a ten in the hole) is
// below 1/3, and insuring (2:1 on a dealer blackjack) or taking even money
// on a blackjack loses stake × (1 − 3p) and stake × (1.5·(1 − p) − 1); with
// small cards taken out, p is above 1/3 and neither is an error.
func TestValueInsuranceAndEvenMoney(t *testing.T) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	tens := cardsOf(t, strings.Repeat("T,", 19)+"T")
	smalls := cardsOf(t, strings.Repeat("2,3,4,5,", 9)+"2,3,4,5")
	// p is the chance of a ten in the hole: the six decks' 96 tens and 312
	// cards less the cards seen before the round, the player's two and the
	// up Ace.
	p10 := func(seen []card.Card, hand string) float64 {
		t10, n := 96, 312-len(seen)-3
		for _, c := range append(append([]card.Card(nil), seen...), cardsOf(t, hand)...) {
			if c.Rank() >= card.Ten {
				t10--
			}
		}
		return float64(t10) / float64(n)
	}
	// Deal order: box 1, the up card, box 1, the hole card.
	insured := func(seen []card.Card) decisionValues {
		rec := engine.Record{Cards: cardsOf(t, "T,A,7,9,T"), Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 1000}}, CutAfter: -1,
			Actions: []engine.Action{{Kind: engine.Insure, Player: "ana", Box: 1, Hand: 1, Stake: 500},
				{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1}}}
		return valueDecisions(p, rec, seen, "ana")
	}
	evenMoney := func(seen []card.Card) decisionValues {
		rec := engine.Record{Cards: cardsOf(t, "A,A,T,9"), Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 1000}}, CutAfter: -1,
			Actions: []engine.Action{{Kind: engine.EvenMoney, Player: "ana", Box: 1, Hand: 1}, {Kind: engine.Close}}}
		return valueDecisions(p, rec, seen, "ana")
	}

	pt := p10(tens, "T,7")
	if pt >= 1.0/3 {
		t.Fatalf("p = %.4f with the tens out", pt)
	}
	got := insured(tens)
	if want := 500 * (1 - 3*pt); got.errors != 1 || math.Abs(got.cost-want) > 1e-6 {
		t.Errorf("insurance at p = %.4f: %+v, want an error of %.4f", pt, got, want)
	}
	if got.decisions != 2 { // the insurance and the stand
		t.Errorf("insurance and a stand: %d decisions valued, %d unvalued", got.decisions, got.unvalued)
	}
	if got := insured(smalls); p10(smalls, "T,7") <= 1.0/3 || got.errors != 0 || got.decisions != 2 {
		t.Errorf("insurance at p = %.4f: %+v, want no error", p10(smalls, "T,7"), got)
	}

	pe := p10(tens, "A,T")
	got = evenMoney(tens)
	if want := 1000 * (1.5*(1-pe) - 1); got.decisions != 1 || got.errors != 1 || math.Abs(got.cost-want) > 1e-6 {
		t.Errorf("even money at p = %.4f: %+v, want an error of %.4f", pe, got, want)
	}
	if got := evenMoney(smalls); got.decisions != 1 || got.errors != 0 {
		t.Errorf("even money at p = %.4f: %+v, want no error", p10(smalls, "A,T"), got)
	}
}

// His play is valued against basic strategy's as well (decisionValues.
// vsBasic): basic strategy's decision's value less his, times the stake,
// in millionths. Playing basic strategy costs nothing; standing on 11
// against a 6 costs what doubling (basic's play) is worth over it; an
// insurance taken where the shoe's tens make it pay (an index play) is a
// gain, negative, of stake × (3p − 1), and one taken where it does not a
// cost.
func TestValueAgainstBasicStrategy(t *testing.T) {
	p, seen, rec, want := elevenAgainstSix(t)
	if got := valueDecisions(p, rec(engine.Double), seen, "ana"); got.vsBasic != 0 || got.decisions != 1 {
		t.Errorf("double on 11 v 6 (basic strategy): %+v, want nothing against basic", got)
	}
	stood := valueDecisions(p, rec(engine.Stand), seen, "ana")
	if w := int64(math.Round((*want.Double - *want.Stand) * 1000 * 1e6)); stood.vsBasic != w || w < 300e6 {
		t.Errorf("stand on 11 v 6: %d millionths against basic, want %d", stood.vsBasic, w)
	}
	if bea := valueDecisions(p, rec(engine.Stand), seen, "bea"); bea.vsBasic != 0 {
		t.Errorf("bea stands on T,8 v 6 (basic strategy): %+v", bea)
	}

	// Insurance: the shoe less 42 small cards (p above 1/3), or less 20
	// tens (below).
	smalls := cardsOf(t, strings.Repeat("2,3,4,5,", 9)+"2,3,4,5")
	tens := cardsOf(t, strings.Repeat("T,", 19)+"T")
	insured := func(seen []card.Card) decisionValues {
		rec := engine.Record{Cards: cardsOf(t, "T,A,7,9,T"), Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 1000}}, CutAfter: -1,
			Actions: []engine.Action{{Kind: engine.Insure, Player: "ana", Box: 1, Hand: 1, Stake: 500},
				{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1}}}
		return valueDecisions(p, rec, seen, "ana")
	}
	for _, c := range []struct {
		name string
		seen []card.Card
		t10  int
	}{{"smalls out", smalls, 96 - 1}, {"tens out", tens, 96 - 1 - 20}} {
		p10 := float64(c.t10) / float64(312-len(c.seen)-3)
		got := insured(c.seen)
		// Standing on 17 v A is basic strategy's play: only the insurance
		// counts.
		if w := int64(math.Round(500 * (1 - 3*p10) * 1e6)); math.Abs(float64(got.vsBasic-w)) > 1 {
			t.Errorf("insurance, %s (p = %.4f): %d millionths against basic, want %d", c.name, p10, got.vsBasic, w)
		}
	}
	if got := insured(smalls); got.vsBasic >= 0 {
		t.Errorf("insurance that pays: %d against basic, want a gain", got.vsBasic)
	}
}

// A declined insurance (ES-11, VE-15) is no action of the record: the
// window closes. It counts as a decision on the close: nothing against
// basic strategy (which declines), and against the exact play the
// insurance's worth where it pays, 500·(3p − 1) on a bet of 1,000
// (the shoe less 42 small cards), nothing where it does not (less 20
// tens).
func TestDeclinedInsuranceIsADecision(t *testing.T) {
	p, _, _, _ := elevenAgainstSix(t)
	smalls := cardsOf(t, strings.Repeat("2,3,4,5,", 9)+"2,3,4,5")
	tens := cardsOf(t, strings.Repeat("T,", 19)+"T")
	declined := func(seen []card.Card) decisionValues {
		rec := engine.Record{Cards: cardsOf(t, "T,A,7,9,T"), Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 1000}}, CutAfter: -1,
			Actions: []engine.Action{{Kind: engine.Close}, {Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1}}}
		return valueDecisions(p, rec, seen, "ana")
	}
	for _, c := range []struct {
		name string
		seen []card.Card
		t10  int
	}{{"smalls out", smalls, 96 - 1}, {"tens out", tens, 96 - 1 - 20}} {
		p10 := float64(c.t10) / float64(312-len(c.seen)-3)
		got := declined(c.seen)
		if got.decisions != 2 || got.vsBasic != 0 {
			t.Errorf("declined, %s: %+v, want 2 decisions (the decline and the stand), 0 against basic", c.name, got)
		}
		want := math.Max(0, 500*(3*p10-1))
		if math.Abs(got.cost-want) > 1e-6 || (want > 0) != (got.errors == 1) {
			t.Errorf("declined, %s (p = %.4f): cost %.6f (%d errors), want %.6f", c.name, p10, got.cost, got.errors, want)
		}
	}
	if declined(smalls).cost < 1 {
		t.Error("declining an insurance that pays costs nothing")
	}
}

// His bets against the count (betsVsCount), by hand: at an edge of
// 0.5 % − 0.5 % a true count, ten rounds of 100 at 0 and two of 800 at
// +4 (mean stake 2600/12) are worth (1000 − 10·2600/12)·0.005 +
// (1600 − 2·2600/12)·(−0.015) = −70/3 to the house; flat bets, at any
// counts, exactly 0.
func TestBetsVsCountByHand(t *testing.T) {
	edge := CountEdge{Intercept: 0.005, Slope: -0.005}
	var spread, flat countSums
	spread.Rounds[CountBuckets], spread.Stakes[CountBuckets] = 10, 1000
	spread.Rounds[CountBuckets+4], spread.Stakes[CountBuckets+4] = 2, 1600
	flat.Rounds[0], flat.Stakes[0] = 7, 700
	flat.Rounds[CountBuckets+4], flat.Stakes[CountBuckets+4] = 3, 300
	if got := betsVsCount([]countAt{{&spread, edge}}); math.Abs(got-(-70.0/3)) > 1e-9 {
		t.Errorf("the spread: %.6f, want %.6f", got, -70.0/3)
	}
	if got := betsVsCount([]countAt{{&flat, edge}, {&flat, CountEdge{Intercept: 0.01, Slope: 0.002}}}); got != 0 {
		t.Errorf("flat bets: %g, want 0", got)
	}
	if countBucket(-7.5) != 0 || countBucket(-0.1) != CountBuckets-1 || countBucket(0) != CountBuckets || countBucket(9) != 2*CountBuckets {
		t.Error("the buckets floor and clamp the true count to ±6")
	}
}

// The house edge by the Hi-Lo true count falls as the count rises, about
// half a per cent a true count (Griffin, The Theory of Blackjack, ch. 4;
// Schlesinger, Blackjack Attack), through about the edge off the top at
// 0.
func TestCountEdgeFallsWithTheCount(t *testing.T) {
	th := NewTheories()
	e, err := th.CountEdgeOf(context.Background(), "vegas-s17", nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Slope > -0.003 || e.Slope < -0.008 || math.Abs(e.Intercept) > 0.01 {
		t.Errorf("house edge by the count: %.5f %+.5f·tc", e.Intercept, e.Slope)
	}
	t.Logf("vegas-s17: house edge %.5f %+.5f·tc", e.Intercept, e.Slope)
}

// The skill theo of Synth's players (who all hit below 17, and one in five
// of whom ramps his bet with the Hi-Lo count): each one's play costs him
// against basic strategy (positive), a flat bettor's bets are worth exactly
// 0, a counter's ramp is worth less than 0 to the house, and the skill
// theo is the basic theo plus both.
func TestSkillTheoOfSynthPlayers(t *testing.T) {
	m, p := synthLog(t, 2, 10, 1500)
	r, err := PlayersReport(context.Background(), memLedger{m}, NewTheories(), p, PlayersOptions{})
	if err != nil {
		t.Fatal(err)
	}
	counters := 0
	for _, x := range r.Players {
		var i int
		if _, err := fmt.Sscanf(x.Player, "p%03d", &i); err != nil {
			t.Fatal(err)
		}
		if x.CostVsBasic <= 0 {
			t.Errorf("%s, hitting below 17: %d against basic strategy, want a cost", x.Player, x.CostVsBasic)
		}
		if i%5 == 0 {
			counters++
			if x.BetsVsCount >= 0 {
				t.Errorf("%s ramps with the count: his bets are worth %d to the house, want less than 0", x.Player, x.BetsVsCount)
			}
		} else if x.BetsVsCount != 0 {
			t.Errorf("%s bets flat: his bets are worth %d, want 0", x.Player, x.BetsVsCount)
		}
		if d := x.SkillTheo - (x.Theo + x.CostVsBasic + x.BetsVsCount); d < -2 || d > 2 {
			t.Errorf("%s: skill theo %d, theo %d + %d + %d", x.Player, x.SkillTheo, x.Theo, x.CostVsBasic, x.BetsVsCount)
		}
	}
	if counters == 0 || len(r.Players) < 5 {
		t.Fatalf("%d players, %d counters", len(r.Players), counters)
	}
}

// elevenAgainstSix is the round both decision tests value: ana's 6-5 (a
// stake of 10.00 at box 1) against the dealer's 6, bea's stand at box 2,
// after a shoe that has shown seen; rec plays ana's first decision as
// first, and want is the exact values of her 11 there.
func elevenAgainstSix(t testing.TB) (*rules.Profile, []card.Card, func(engine.Kind) engine.Record, *analysis.Values) {
	t.Helper()
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
	return p, seen, rec, want
}

// A hand of a box split once (vegas-s17: peek, DAS) is valued against
// basic strategy as its cards unsplit from the shoe less the other hand's:
// 8,8 v 6 split (basic strategy), the first hand 8,3 stood where basic
// doubles 11 v 6 (the double-minus-stand gap of 8,3 less the other 8,
// times 1,000), the second 8,7 stood (basic). A resplit is not valued.
func TestSplitHandValuedAgainstBasic(t *testing.T) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.Record{Cards: cardsOf(t, "8,6,8,T,3,7,5,5,5,5"), Bets: []engine.PlacedBet{{Player: "ana", Box: 1, Stake: 1000}}, CutAfter: -1,
		Actions: []engine.Action{{Kind: engine.Split, Player: "ana", Box: 1, Hand: 1},
			{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 1},
			{Kind: engine.Stand, Player: "ana", Box: 1, Hand: 2}}}
	got := valueDecisions(p, rec, nil, "ana")
	v, err := analysis.HandValues(p, cardsOf(t, "6")[0], cardsOf(t, "8,3"), analysis.EVOptions{Removed: cardsOf(t, "8")})
	if err != nil {
		t.Fatal(err)
	}
	w := int64(math.Round((*v.Double - *v.Stand) * 1000 * 1e6))
	if got.decisions != 3 || got.unvalued != 0 || got.vsBasic != w || w < 300e6 {
		t.Errorf("split 8,8 v 6, stood on 8,3 and 8,7: %+v, want 3 decisions and %d millionths against basic", got, w)
	}
}

// BenchmarkValueDecisions values one round's decisions (two boxes, a
// double or a stand on 11 v 6 and a stand): the exact calculator's cost
// a decision, beside the basic-strategy card's lookup (basicCard).
func BenchmarkValueDecisions(b *testing.B) {
	p, seen, rec, _ := elevenAgainstSix(b)
	r := rec(engine.Stand)
	b.ReportAllocs()
	for b.Loop() {
		valueDecisions(p, r, seen, "ana")
	}
}
