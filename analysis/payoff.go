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
// whether it is a two-card 21, whether it was made by splitting, and by
// splitting Aces (AR-19: split_blackjack=aces-even pays a split ten's
// blackjack, not a split Ace's, at blackjack_pays).
type payKey uint16

func keyOf(c rules.Count, split, aces bool) payKey {
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
		if aces && c.TwoCard21() {
			k |= 1 << 9
		}
	}
	return k
}

// payKeys bounds payKey.
const payKeys = 1 << 10

// payTable caches Settle's answers by payKey, and each answer arranged for
// solver.settle. It belongs to one goroutine.
type payTable struct {
	p    *rules.Profile
	m    [payKeys]*[outcomes]payoff
	rows [payKeys][2]*settleRow // by stake: 1, 2
}

func newPayTable(p *rules.Profile) *payTable { return &payTable{p: p} }

func (t *payTable) of(c rules.Count, split, aces bool) *[outcomes]payoff {
	k := keyOf(c, split, aces)
	if v := t.m[k]; v != nil {
		return v
	}
	v := new([outcomes]payoff)
	for d := 0; d < outcomes; d++ {
		o := t.p.Settle(rules.PlayerHand{Count: c, Split: split, SplitAces: split && aces}, dealerRep[d])
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

// settleRow is a hand's payoffs for one stake (1 or 2) as solver.settle
// reads them: by dealer outcome, what the hand nets, the statistic its
// result counts in, and whether it is the split hand's share of a loss to
// a dealer blackjack that takes the original stake only.
type settleRow struct {
	net    [outcomes]float64
	stat   [outcomes]uint8
	bjLoss [outcomes]bool
}

// row returns the settleRow of a hand (not bust) with stake units on it.
func (t *payTable) row(c rules.Count, split, aces bool, stake float64) *settleRow {
	k, i := keyOf(c, split, aces), 0
	if stake > 1 {
		i = 1
	}
	if r := t.rows[k][i]; r != nil {
		return r
	}
	pay := t.of(c, split, aces)
	r := new(settleRow)
	for d, o := range pay {
		r.net[d] = o.units * stake
		if o.origOnly && o.res < 0 {
			// dealer_blackjack_takes=original: the box loses its original
			// unit only. An unsplit hand loses 1, doubled or not. After a
			// split the original unit is lost once for the box: each hand
			// bears half of it, which is exact for one split (the hands
			// are exchangeable) and makes the post-split play optimise the
			// right objective; with resplits it is an approximation.
			if split {
				r.net[d] = -0.5
				r.bjLoss[d] = true
			} else {
				r.net[d] = -1
			}
		}
		switch o.res {
		case 1:
			r.stat[d] = sWin
		case 0:
			r.stat[d] = sPush
		default:
			r.stat[d] = sLose
		}
	}
	t.rows[k][i] = r
	return r
}

// surrender returns what a surrendered hand nets per unit against a dealer
// blackjack and against any other dealer hand (Settle, surrender rule).
func surrenderPays(p *rules.Profile) (vsBJ, vsOther float64) {
	h := rules.PlayerHand{Count: rules.CountOf(kindCard[tenIdx], kindCard[5]), Surrendered: true}
	a := p.Settle(h, dealerRep[dBJ])
	b := p.Settle(h, dealerRep[d18])
	return float64(a.Num) / float64(a.Den), float64(b.Num) / float64(b.Den)
}
