package analysis

import (
	"sabot/rules"
	"testing"
	"time"
)

func TestDM(t *testing.T) {
	for _, h17 := range []bool{false, true} {
		p := rules.MustLookup("vegas-s17")
		p.DealerHitsSoft17 = h17
		tot := 0
		for up := 0; up < 10; up++ {
			m := newDealerModel(p, up)
			tot += len(m.finals)
			t.Logf("h17=%v up %s finals %d maxN %d maxK %v", h17, kindName[up], len(m.finals), m.maxN, m.maxK)
			s := FullShoe(p)
			s[up]--
			var o [outcomes]float64
			st := time.Now()
			for i := 0; i < 1000; i++ {
				o = [outcomes]float64{}
				m.dist(&s, &o)
			}
			t.Logf("  %v per dist; %v", time.Since(st)/1000, o)
		}
		t.Log(tot)
	}
}
