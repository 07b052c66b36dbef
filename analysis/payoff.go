package analysis

import "sabot/rules"

// payoff is what one unit of stake on a finished player hand nets against
// one dealer outcome, read from rules.Profile.Settle: the analysis keeps no
// second copy of the settlement table.
type payoff struct {
	units    float64 // net per unit staked
	res      int8    // +1 won, 0 pushed, -1 lost
	origOnly bool    // a dealer blackjack took only the original stake (TakesOriginal)
}

// dealerRep is a representative dealer hand for each outcome; Settle reads
// only its total, its card count and whether it is a blackjack.
var dealerRep = func() [outcomes]rules.DealerHand {
	c := func(ks ...int) rules.DealerHand {
		var n rules.Count
		for _, k := range ks {
			n = n.Add(kindCard[k])
		}
		return rules.DealerHand{Count: n}
	}
	return [outcomes]rules.DealerHand{
		d17:     c(tenIdx, 6),
		d18:     c(tenIdx, 7),
		d19:     c(tenIdx, 8),
		d20:     c(tenIdx, tenIdx),
		d21:     c(tenIdx, 4, 5),
		d21Five: c(1, 1, 1, 4, tenIdx),
		dBJ:     c(aceIdx, tenIdx),
		dBust:   c(tenIdx, 5, tenIdx),
	}
}()

// payKey is everything of a player hand that Settle looks at: its total
// (22 for any bust), whether it has five cards, whether it is three sevens,
// whether it is a two-card 21, and whether it was made by splitting.
type payKey uint16

func keyOf(c rules.Count, split bool) payKey {
	t := c.Total()
	if t > 22 {
		t = 22
	}
	k := payKey(t)
	if c.N == 5 {
		k |= 1 << 5
	}
	if c.N == 3 && c.Sevens == 3 {
		k |= 1 << 6
	}
	if c.TwoCard21() {
		k |= 1 << 7
	}
	if split {
		k |= 1 << 8
	}
	return k
}

// payTable caches Settle's answers by payKey. It belongs to one goroutine.
type payTable struct {
	p *rules.Profile
	m map[payKey]*[outcomes]payoff
}

func newPayTable(p *rules.Profile) *payTable {
	return &payTable{p: p, m: map[payKey]*[outcomes]payoff{}}
}

func (t *payTable) of(c rules.Count, split bool) *[outcomes]payoff {
	k := keyOf(c, split)
	if v, ok := t.m[k]; ok {
		return v
	}
	v := new([outcomes]payoff)
	for d := 0; d < outcomes; d++ {
		o := t.p.Settle(rules.PlayerHand{Count: c, Split: split}, dealerRep[d])
		v[d] = payoff{units: float64(o.Num) / float64(o.Den), origOnly: o.OriginalOnly}
		switch {
		case o.Num > 0:
			v[d].res = 1
		case o.Num < 0:
			v[d].res = -1
		}
	}
	t.m[k] = v
	return v
}

// surrender returns what a surrendered hand nets per unit against a dealer
// blackjack and against any other dealer hand (Settle, surrender rule).
func surrenderPays(p *rules.Profile) (vsBJ, vsOther float64) {
	h := rules.PlayerHand{Count: rules.CountOf(kindCard[tenIdx], kindCard[5]), Surrendered: true}
	a := p.Settle(h, dealerRep[dBJ])
	b := p.Settle(h, dealerRep[d18])
	return float64(a.Num) / float64(a.Den), float64(b.Num) / float64(b.Den)
}
