package analysis

import (
	"math"
	"testing"

	"sabot/rules"
)

// The two dealer computations (the list of final hands and the DAG of draw
// states) are built differently and must agree.
func TestDealerGraphMatchesFinals(t *testing.T) {
	for _, name := range []string{"vegas-s17", "vegas-h17"} {
		p := rules.MustLookup(name)
		for _, decks := range []int{1, 6} {
			p.Decks = decks
			for up := 0; up < kinds; up++ {
				m, g := newDealerModel(p, up), newDealerGraph(p, up)
				s := FullShoe(p)
				s[up]--
				s[3] -= 2 // some removal
				s[tenIdx]--
				var a, b [outcomes]float64
				var scratch []float64
				m.dist(&s, &a)
				g.dist(&s, &b, &scratch)
				sum := 0.0
				for k := range a {
					sum += a[k]
					if math.Abs(a[k]-b[k]) > 1e-13 {
						t.Errorf("%s %d decks up %s outcome %s: finals %.15f graph %.15f", name, decks, kindName[up], outcomeNames[k], a[k], b[k])
					}
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%s up %s: probabilities sum to %v", name, kindName[up], sum)
				}
			}
		}
	}
}
