package analysis

import "sabot/rules"

// cand is one decision open to an initial hand and its value: the total
// expectation of the round (dealer blackjack included), per unit bet.
type cand struct {
	code Code
	v    val
}

// rootHand is the analysis of one initial two-card hand under this up card.
type rootHand struct {
	x, y  int     // the kinds of the two cards, x <= y
	w     float64 // P(these two cards | the up card)
	pbj   float64 // P(dealer blackjack | the three cards)
	bj    bool    // the player has a blackjack
	cands []cand
	best  int // index in cands of the decision taken
	// side decisions and their expectations per unit bet
	insure, evenMoney bool
	insEV             float64 // value of insurance (half the stake) if taken
}

// total turns a W-space value of the main hand into the round's total
// expectation: under a peek the dealer's blackjack took one unit before the
// hand was played.
func (s *solver) total(v val, pbj float64) val {
	if s.peek {
		v[sEV] -= pbj
		v[sLose] += pbj
		v[sStake] += pbj
	}
	return v
}

// handCands lists the decisions of a two-card hand at the start of a round
// (no split) with their values, under the current policy.
func (s *solver) handCands(h0 hand, pbj float64) []cand {
	var out []cand
	decls := []uint8{0}
	if s.mustDeclare(h0) {
		decls = []uint8{11, 1}
	}
	for _, d := range decls {
		h := h0
		if d != 0 {
			h = h0.declare(int(d))
		}
		if s.standWorthy(h) {
			out = append(out, cand{Code{Act: Stand, Declare: d}, s.total(s.stand(h, 0, 1), pbj)})
		}
		out = append(out, cand{Code{Act: Hit, Declare: d}, s.total(s.hit(h, 0), pbj)})
		if s.canDouble(h) {
			out = append(out, cand{Code{Act: Double, Declare: d}, s.total(s.double(h, 0), pbj)})
		}
	}
	if s.p.MaySurrender(rules.HandPos{Count: h0.c}) {
		var v val
		v[sEV] = pbj*s.surBJ + (1-pbj)*s.surOther
		v[sLose] = 1
		v[sStake] = 1
		out = append(out, cand{Code{Act: Surrender}, v})
	}
	return out
}

// root analyses the initial hand x, y under the current policy. For the TD
// policy the decision is the strategy table's.
func (s *solver) root(x, y int) rootHand {
	h0 := hand{pair: -1}.with(x).with(y)
	r := rootHand{x: x, y: y, w: s.weightOf(h0.comp), pbj: s.pBJ(h0.comp)}
	if r.w == 0 {
		return r
	}
	pbj := r.pbj
	if h0.c.TwoCard21() {
		r.bj = true
		s.rootBlackjack(&r, h0)
		return r
	}
	r.cands = s.handCands(h0, pbj)
	if x == y && s.maySplit(x, 1) && s.base[x]-2 >= 0 {
		r.cands = append(r.cands, cand{Code{Act: Split}, s.total(s.splitValue(x), pbj)})
	}
	if s.pol == polCD {
		for i := range r.cands {
			if r.cands[i].v[sEV] > r.cands[r.best].v[sEV] {
				r.best = i
			}
		}
		s.cdSplits[x] = x == y && r.cands[r.best].code.Act == Split
	} else {
		r.best = s.pick(r.cands, s.td.rootCode(s, h0))
	}
	// Insurance (ES-11, VE-15): half the stake at 2:1 on a dealer
	// blackjack; taken only when it gains.
	if s.p.Insurance && s.up == aceIdx {
		if ev := 0.5 * (3*pbj - 1); ev > 0 {
			r.insure, r.insEV = true, ev
		}
	}
	return r
}

// pick returns the index of the candidate a code chooses, resolving the
// code's fallback where its action is not open.
func (s *solver) pick(cs []cand, c Code) int {
	for {
		for i, k := range cs {
			if k.code.Act == c.Act && (k.code.Declare == c.Declare || c.Act == Surrender || c.Act == Split) {
				return i
			}
		}
		switch {
		case c.Else != 0:
			c = Code{Act: c.Else, Declare: c.Declare}
		case c.Act == Stand:
			c.Act = Hit // VE-06: a hand that must draw
		default:
			return 0
		}
	}
}

// rootBlackjack values a player's blackjack: paid by the profile's ratio,
// pushed by a dealer blackjack; even money (ES-10, VE-16) or insuring it
// (ES-10, VE-15) when that is better.
func (s *solver) rootBlackjack(r *rootHand, h0 hand) {
	pbj := r.pbj
	pay := s.pay.of(h0.c, false, false)
	var v val
	v[sEV] = (1-pbj)*pay[d18].units + pbj*pay[dBJ].units
	v[sWin] = 1 - pbj
	v[sPush] = pbj
	v[sStake] = 1
	r.cands = []cand{{Code{Act: Stand}, v}}
	em := s.p.EvenMoney == rules.EvenMoneyAceTen && s.bjUp ||
		s.p.EvenMoney == rules.EvenMoneyAce && s.up == aceIdx
	if em {
		var e val
		e[sEV], e[sWin], e[sStake] = 1, 1, 1
		if e[sEV] > v[sEV] {
			r.cands, r.evenMoney = []cand{{Code{Act: Stand}, e}}, true
		}
	}
	if s.p.Insurance && s.p.InsureBlackjack && s.up == aceIdx && !r.evenMoney {
		if ev := 0.5 * (3*pbj - 1); ev > 0 {
			r.insure, r.insEV = true, ev
		}
	}
}
