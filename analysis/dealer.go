package analysis

import (
	"sort"

	"sabot/rules"
)

// Dealer outcomes: the dealer's final hand as settlement sees it.
const (
	d17      = iota // 17 (of two or more cards)
	d18             // 18
	d19             // 19
	d20             // 20
	d21             // 21 of three or more cards, not five
	d21Five         // 21 of exactly five cards (PON-01 pushes a player's five-card 21)
	dBJ             // blackjack: 21 with the first two cards
	dBust           // over 21
	outcomes        // number of outcomes
)

// outcomeNames labels the dealer outcomes in reports.
var outcomeNames = [outcomes]string{"17", "18", "19", "20", "21", "21 (5 cards)", "blackjack", "bust"}

// dealerFinal is one way the dealer's hand can end: the multiset of cards
// drawn after the up card (the hole card first), the number of orders in
// which the dealer's rule draws exactly those cards, and the outcome.
type dealerFinal struct {
	off, len uint16 // span of (kind, count) pairs in dealerModel.pairs
	n        uint8  // cards drawn
	class    uint8
	ways     float64
}

// dealerModel lists every final dealer hand for one up card under one
// profile's drawing rule (AR-13, ES-05, VE-08). The probability of a final
// hand drawn from a shoe depends only on its multiset: each order of k cards
// has probability prod_r ff(n_r, k_r) / ff(N, k) (ff the falling factorial),
// so the dealer's distribution for any shoe is a sum over this list.
type dealerModel struct {
	up     int
	finals []dealerFinal
	pairs  []uint8 // kind, count, kind, count, ...
	maxK   [kinds]int
	maxN   int
}

// newDealerModel enumerates the dealer's hands for up card kind up. The
// drawing rule is the profile's own: rules.Profile.DealerDraws on the
// rules.Count that Profile.DealerAdd makes, no second copy of it.
func newDealerModel(p *rules.Profile, up int) *dealerModel {
	m := &dealerModel{up: up}
	upCount := rules.Count{}.Add(kindCard[up])
	// A state is the cards drawn and their count: under
	// dealer_ace=stays-one the count depends on the order of the cards as
	// well as on the multiset (A-5-2 is 8, 5-2-A is 18: AR-13), so the
	// states of one multiset are kept apart by their counts.
	type state struct {
		comp  pack
		count rules.Count
	}
	level := map[state]float64{{0, upCount}: 1}
	type final struct {
		comp  pack
		count rules.Count
		ways  float64
	}
	var finals []final
	for len(level) > 0 {
		next := map[state]float64{}
		for st, ways := range level {
			// The dealer always completes two cards (the hole card, or the
			// European second card), then draws by the rule.
			if st.comp != 0 && !p.DealerDraws(st.count) {
				finals = append(finals, final{st.comp, st.count, ways})
				continue
			}
			for r := 0; r < kinds; r++ {
				next[state{st.comp.add(r), p.DealerAdd(st.count, kindCard[r])}] += ways
			}
		}
		level = next
	}
	sort.Slice(finals, func(i, j int) bool {
		if a, b := finals[i].comp.size(), finals[j].comp.size(); a != b {
			return a < b
		}
		if finals[i].comp != finals[j].comp {
			return finals[i].comp < finals[j].comp
		}
		return dealerClass(finals[i].count) < dealerClass(finals[j].count)
	})
	for _, f := range finals {
		df := dealerFinal{off: uint16(len(m.pairs)), n: uint8(f.comp.size()), ways: f.ways, class: uint8(dealerClass(f.count))}
		for r := 0; r < kinds; r++ {
			if k := f.comp.get(r); k > 0 {
				m.pairs = append(m.pairs, uint8(r), uint8(k))
				if k > m.maxK[r] {
					m.maxK[r] = k
				}
			}
		}
		df.len = uint16(len(m.pairs)) - df.off
		if int(df.n) > m.maxN {
			m.maxN = int(df.n)
		}
		m.finals = append(m.finals, df)
	}
	return m
}

// dealerClass is the outcome of a final dealer hand.
func dealerClass(c rules.Count) int {
	t := c.Total()
	switch {
	case t > 21:
		return dBust
	case c.TwoCard21():
		return dBJ
	case t == 21 && c.N == 5:
		return d21Five
	}
	return t - 17
}

// dist adds to out the probability of each outcome when the dealer draws
// from shoe s (the up card and every known card already removed).
func (m *dealerModel) dist(s *Counts, out *[outcomes]float64) {
	var ff [kinds][24]float64
	n := 0
	for r := 0; r < kinds; r++ {
		n += s[r]
		ff[r][0] = 1
		for k := 1; k <= m.maxK[r]; k++ {
			x := float64(s[r] - k + 1)
			if x < 0 {
				x = 0
			}
			ff[r][k] = ff[r][k-1] * x
		}
	}
	var inv [24]float64
	d := 1.0
	for k := 1; k <= m.maxN; k++ {
		d *= float64(n - k + 1)
		if d > 0 {
			inv[k] = 1 / d
		}
	}
	for i := range m.finals {
		f := &m.finals[i]
		p := f.ways * inv[f.n]
		for j := f.off; j < f.off+f.len; j += 2 {
			p *= ff[m.pairs[j]][m.pairs[j+1]]
		}
		out[f.class] += p
	}
}

// distInfinite is dist for an infinite shoe whose kinds have probabilities q.
func (m *dealerModel) distInfinite(q *[kinds]float64, out *[outcomes]float64) {
	for i := range m.finals {
		f := &m.finals[i]
		p := f.ways
		for j := f.off; j < f.off+f.len; j += 2 {
			for k := uint8(0); k < m.pairs[j+1]; k++ {
				p *= q[m.pairs[j]]
			}
		}
		out[f.class] += p
	}
}
