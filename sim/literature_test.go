package sim

import (
	"context"
	"math"
	"testing"

	"sabot/rules"
)

// TestHiLoTrueCountWorth checks a figure every counting text states: for the
// Hi-Lo count in a shoe game each unit of true count moves the player's
// advantage by about half a percent (Schlesinger, Blackjack Attack, 3rd ed.,
// 2005, ch. 5, "each true count ... is worth approximately 0.5 %"; Wong,
// Professional Blackjack, 1994). Flat bet, basic strategy, 6 decks, S17,
// DAS, 75 % penetration (vegas-s17); the slope of EV by true count at the
// bet, by weighted least squares over counts -3 to +5, must lie in
// 0.40-0.65 % per count. 10 M rounds (about a second) measure it to ±0.023 %;
// the long run (100 M) measures 0.47 %.
func TestHiLoTrueCountWorth(t *testing.T) {
	rounds := int64(10_000_000)
	if *Long {
		rounds = 100_000_000
	}
	p := rules.MustLookup("vegas-s17")
	res, err := Run(context.Background(), Config{Profile: p, Strategy: Textbook(false), Count: &HiLo, Rounds: rounds, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var sw, sx, sy, sxx, sxy float64
	for _, r := range res.ByCount {
		if r.Count < -3 || r.Count > 5 || r.SE == 0 {
			continue
		}
		w := 1 / (r.SE * r.SE)
		x := float64(r.Count) + 0.5 // the bucket holds counts from Count to Count+1
		sw += w
		sx += w * x
		sy += w * r.EV
		sxx += w * x * x
		sxy += w * x * r.EV
	}
	slope := (sw*sxy - sx*sy) / (sw*sxx - sx*sx)
	se := math.Sqrt(sw / (sw*sxx - sx*sx))
	t.Logf("Hi-Lo: %.3f %% ± %.3f %% of advantage per true count (EV at the bet %+.3f %%)", 100*slope, 100*se, 100*res.EV)
	if slope < 0.0040 || slope > 0.0065 {
		t.Errorf("Hi-Lo true count worth %.3f %% per count, want about 0.5 %%", 100*slope)
	}
}

// TestHiLoInsuranceIndex checks the first of the Illustrious 18: with Hi-Lo
// in a multi-deck shoe, insurance becomes a good bet at a true count of +3
// (Schlesinger, Blackjack Attack, 3rd ed., ch. 5, Table 5.1: insurance,
// index +3). From 6-deck shoes dealt to 75 %, the expectation of insurance
// (3·P(ten) − 1 among the unseen cards) by true count must be negative at
// counts 1 to 2, positive at 4 to 5, and cross zero between +2.5 and +3.6.
func TestHiLoInsuranceIndex(t *testing.T) {
	p := rules.MustLookup("vegas-s17")
	d := newDeck(p.Decks, p.ShoeProcedure(), false)
	d.fast = true
	d.reseed(seedChunk(17, 0))
	tag := HiLo.tagTable()
	var n, ev [2*countRange + 1]float64
	for shoe := 0; shoe < 20000; shoe++ {
		d.prepare()
		tens := 96
		for _, c := range d.buf[:d.pos] { // the burned cards are unseen
			if c.IsTen() {
				tens--
			}
		}
		var rc int32
		for d.remaining() > d.proc.CutCardReserve {
			left := d.remaining()
			tc := float64(rc) * 52 / float64(left)
			// The burned cards are unseen: their tens are still
			// unknown to the counter but not in the shoe.
			b := bucket(tc)
			n[b]++
			ev[b] += 3*float64(tens)/float64(left) - 1
			c := d.draw()
			rc += tag[c]
			if c.IsTen() {
				tens--
			}
		}
	}
	at := func(k int) float64 { return ev[k+countRange] / n[k+countRange] }
	t.Logf("insurance EV by true count: +1 %+.4f, +2 %+.4f, +3 %+.4f, +4 %+.4f", at(1), at(2), at(3), at(4))
	if at(1) >= 0 || at(4) <= 0 {
		t.Errorf("insurance EV %+.4f at +1, %+.4f at +4: want negative, then positive", at(1), at(4))
	}
	// Bucket k holds counts k to k+1: interpolate between bucket midpoints.
	cross := math.NaN()
	for k := 1; k < 5; k++ {
		if at(k) < 0 && at(k+1) >= 0 {
			cross = float64(k) + 0.5 + at(k)/(at(k)-at(k+1))
		}
	}
	t.Logf("insurance breaks even at a true count of %+.2f (Blackjack Attack: +3)", cross)
	if !(cross >= 2.5 && cross <= 3.6) {
		t.Errorf("insurance breaks even at %+.2f, want about +3", cross)
	}
}
