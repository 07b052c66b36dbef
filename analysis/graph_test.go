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

// dist4 gives dist's numbers bit for bit, for shoes that run out of a kind
// too.
func TestDealerGraphLanes(t *testing.T) {
	p := rules.MustLookup("family")
	for up := 0; up < kinds; up++ {
		g := newDealerGraph(p, up)
		full := FullShoe(p)
		full[up]--
		shoes := []Counts{full, full, full}
		shoes[1][tenIdx] -= 10
		shoes[2][5], shoes[2][6], shoes[2][aceIdx] = 0, 1, 0
		var outs [3][outcomes]float64
		var scratch []lane
		g.dist4(shoes, []*[outcomes]float64{&outs[0], &outs[1], &outs[2]}, &scratch)
		var buf []float64
		for i := range shoes {
			var want [outcomes]float64
			g.dist(&shoes[i], &want, &buf)
			if want != outs[i] {
				t.Errorf("up %s shoe %d: dist4 %v, dist %v", kindName[up], i, outs[i], want)
			}
		}
	}
}
