package analysis

import (
	"math"
	"testing"

	"sabot/rules"
)

// ar13Chain is the dealer's outcome distribution from a finite shoe under
// dealer_ace=stays-one, by its own recursion over the cards in the order
// they come (not rules.Profile.DealerAdd): a state is the hard total, the
// cards, and whether an Ace may still count 11. When the dealer draws to a
// soft hand of two cards or more, its Ace is 1 from then on (AR-13: A-5
// then a 2 is 8). h17 draws to a soft 17 as well.
func ar13Chain(s Counts, hard, cards int, live, h17 bool) [outcomes]float64 {
	var out [outcomes]float64
	total, soft := hard, false
	if live && hard <= 11 {
		total, soft = hard+10, true
	}
	stand := cards >= 2 && (total > 17 || total == 17 && !(soft && h17))
	switch {
	case total > 21:
		out[dBust] = 1
		return out
	case stand && cards == 2 && total == 21:
		out[dBJ] = 1
		return out
	case stand && total == 21 && cards == 5:
		out[d21Five] = 1
		return out
	case stand:
		out[total-17] = 1
		return out
	}
	if soft && cards >= 2 {
		live = false // he draws: the Ace counted 11 is 1 for good
	}
	n := s.Total()
	for k := 0; k < kinds; k++ {
		if s[k] == 0 {
			continue
		}
		q := float64(s[k]) / float64(n)
		v := k + 1
		if k == tenIdx {
			v = 10
		}
		s[k]--
		sub := ar13Chain(s, hard+v, cards+1, live || k == aceIdx, h17)
		s[k]++
		for i := range out {
			out[i] += q * sub[i]
		}
	}
	return out
}

// TestDealerAceStaysOne_AR13: the analysis' two dealer computations (the
// final hands and the graph of draw states) give the recursion's numbers
// on a one-deck shoe under dealer_ace=stays-one, S17 and H17; and the
// reading changes them where it must: A-5 then a 2 no longer stands on
// 18, so a 5 up makes fewer 18s and more busts than under recount.
func TestDealerAceStaysOne_AR13(t *testing.T) {
	for _, h17 := range []bool{false, true} {
		p := rules.MustLookup("vegas-s17")
		p.Decks, p.DealerHitsSoft17, p.DealerAce = 1, h17, rules.AceStaysOne
		for up := 0; up < kinds; up++ {
			s := FullShoe(p)
			s[up]--
			v := up + 1
			if up == tenIdx {
				v = 10
			}
			want := ar13Chain(s, v, 1, up == aceIdx, h17)
			var a, b [outcomes]float64
			var scratch []float64
			newDealerModel(p, up).dist(&s, &a)
			newDealerGraph(p, up).dist(&s, &b, &scratch)
			for i := range want {
				if math.Abs(a[i]-want[i]) > 1e-13 || math.Abs(b[i]-want[i]) > 1e-13 {
					t.Errorf("h17=%v up %s %s: finals %.15f, graph %.15f, recursion %.15f", h17, kindName[up], outcomeNames[i], a[i], b[i], want[i])
				}
			}
		}
	}
	p := rules.MustLookup("argentina")
	q := p.Clone()
	q.DealerAce = rules.AceStaysOne
	s := FullShoe(p)
	s[4]--
	var rec, one [outcomes]float64
	newDealerModel(p, 4).dist(&s, &rec)
	newDealerModel(q, 4).dist(&s, &one)
	if !(one[d18] < rec[d18] && one[dBust] > rec[dBust]) {
		t.Errorf("up 5: stays-one 18 %.5f bust %.5f, recount 18 %.5f bust %.5f: want fewer 18s and more busts", one[d18], one[dBust], rec[d18], rec[dBust])
	}
	t.Logf("argentina, up 5: bust %.5f (recount) against %.5f (stays-one)", rec[dBust], one[dBust])
}
