package analysis

import (
	"context"
	"math"
	"sort"

	"sabot/rules"
)

// The distribution of a round's net result (the PAR sheet's table of
// outcomes): for each net, in units of the initial bet, its probability per
// round, off the top of a full shoe, one player alone, for basic strategy
// (td), the composition-dependent play (cd) and a reference player who
// mimics the dealer.
//
// A round without a split is exact: each hand is played by the strategy's
// own play at every composition (the plays the expectation was computed
// with), each final hand settled against the dealer's exact distribution
// for the cards it leaves, the dealer's blackjack added at the start under
// a peek. Its mean is the strategy's expectation by construction.
//
// A split round follows the exact split value's method (splitValue) with
// distributions in place of values: each hand's net jointly with the
// dealer's final outcome from D_j (the shoe less the pair and j more pair
// cards), a random non-pair card removed by the same identity (linear in
// the law, as in the value), the second round's chain to its endings (the
// kinds of the hands' second cards, which is the first hand's, every new
// pair resplit while the rules allow, or kept where the CD policy keeps it).
// Each hand's law with the dealer's outcome is then exact for its ending,
// and so is the round's mean (the exact split value, nothing set or moved);
// what is not exact is the joint law of the hands given the dealer's
// outcome, taken as independent (the cards one hand draws change the
// others' shoe only through that dependence). A dealer blackjack that
// takes the original stake only is settled on the round: the first hand's
// unit unless it busted, and whatever busted.

// NetOutcome is one net result of a round and its probability.
type NetOutcome struct {
	Net float64 `json:"net"` // units of the initial bet; negative a loss
	P   float64 `json:"p"`
}

// NetDistribution is the distribution of a round's net result for one
// strategy, and the figures a PAR sheet derives from it.
type NetDistribution struct {
	Strategy string       `json:"strategy"` // td, cd, mimic
	Outcomes []NetOutcome `json:"outcomes"` // by net, increasing
	// Mean is the expected net per initial unit (the strategy's EV);
	// Variance and SD its variance and standard deviation per round.
	Mean     float64 `json:"mean"`
	Variance float64 `json:"variance"`
	SD       float64 `json:"sd"`
	// VolatilityIndex is 1.645·SD: the half-width, per round, of the 90 %
	// two-sided band (a slot PAR sheet's VI at 90 % confidence).
	VolatilityIndex float64 `json:"volatility_index"`
	// HitFrequency is P(net > 0), Push P(net = 0), Loss P(net < 0).
	HitFrequency float64 `json:"hit_frequency"`
	Push         float64 `json:"push"`
	Loss         float64 `json:"loss"`
	// MaxWin and MaxLoss are the largest net won and lost in a round of
	// positive probability (MaxLoss as a positive number of units: the
	// exposure per initial unit).
	MaxWin  float64 `json:"max_win"`
	MaxLoss float64 `json:"max_loss"`
	// SplitRounds is the probability of a round with a split (its joint
	// law of the hands approximated, above); SplitMeanGap those rounds'
	// contribution to Mean less their exact one (splitValue's), per
	// round: rounding only, nothing is set or moved.
	SplitRounds  float64 `json:"split_rounds"`
	SplitMeanGap float64 `json:"split_mean_gap"`
	// Exactness says in words what is exact and what is not (netExactness).
	Exactness string `json:"exactness"`
	// dealerGap is the largest difference, over the split endings and the
	// dealer's outcomes, between the outcome's probability in one hand's
	// law and another's: each is the dealer's law for the same cards, so
	// it is rounding (TestNetDistribution checks it).
	dealerGap float64
}

// NetResult holds the net distributions of a profile.
type NetResult struct {
	TD    NetDistribution `json:"td"`
	CD    NetDistribution `json:"cd"`
	Mimic NetDistribution `json:"mimic"` // the dealer's rule: hit to 16 (soft 17 as he does), never double, split or surrender
}

// NetDistributions computes the distributions of a round's net result of
// profile p for basic strategy, the composition-dependent play and the
// dealer's mimic. It runs the analysis again (not cached): a few times
// the cost of Analyze.
func NetDistributions(ctx context.Context, p *rules.Profile) (*NetResult, error) {
	_, ups, err := computeWith(ctx, p, nil, true)
	if err != nil {
		return nil, err
	}
	full := FullShoe(p)
	N := float64(full.Total())
	var acc [nPolNet]ndist
	var split, gap, dgap [nPolNet]float64
	for i := range acc {
		acc[i] = ndist{}
	}
	for up, r := range ups {
		pu := float64(full[up]) / N
		for i := range acc {
			acc[i].addScaled(r.net[i], pu)
			split[i] += pu * r.netSplit[i]
			gap[i] += pu * r.netGap[i]
			dgap[i] = max(dgap[i], r.netDealerGap[i])
		}
	}
	out := &NetResult{}
	for i, d := range []*NetDistribution{&out.CD, &out.TD, &out.Mimic} {
		*d = acc[i].summary([]string{"cd", "td", "mimic"}[i])
		d.SplitRounds, d.SplitMeanGap, d.dealerGap = split[i], gap[i], dgap[i]
		d.Exactness = netExactness
	}
	return out, nil
}

// netExactness is NetDistribution.Exactness.
const netExactness = "exact for rounds without a split; in a split round each hand's net with the dealer's final outcome is exact, " +
	"and so is the round's mean; the joint law of the split hands given the dealer's outcome is taken as independent"

const (
	polMimic = 2 // the dealer's mimic (netdist only)
	nPolNet  = 3
)

// netScale: nets are kept as integer multiples of 1/120 of a unit (every
// payout of the rules — 3:2, 6:5, 2:1, 3:1, halves — is one).
const netScale = 120

type ndist map[int32]float64

func netKey(net float64) int32 { return int32(math.Round(net * netScale)) }

func (d ndist) add(net, p float64) {
	if p != 0 {
		d[netKey(net)] += p
	}
}

func (d ndist) addScaled(e ndist, p float64) {
	for k, v := range e {
		d[k] += p * v
	}
}

func (d ndist) mass() float64 {
	s := 0.0
	for _, v := range d {
		s += v
	}
	return s
}

func (d ndist) mean() float64 {
	s := 0.0
	for k, v := range d {
		s += float64(k) / netScale * v
	}
	return s
}

// conv is the distribution of the sum of independent draws from d and e.
func conv(d, e ndist) ndist {
	out := ndist{}
	for k, v := range d {
		for j, w := range e {
			out[k+j] += v * w
		}
	}
	return out
}

// summary is d's PAR figures.
func (d ndist) summary(strategy string) NetDistribution {
	r := NetDistribution{Strategy: strategy}
	keys := make([]int32, 0, len(d))
	for k, v := range d {
		if v > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		r.Outcomes = append(r.Outcomes, NetOutcome{Net: float64(k) / netScale, P: d[k]})
	}
	for _, o := range r.Outcomes {
		r.Mean += o.Net * o.P
		switch {
		case o.Net > 0:
			r.HitFrequency += o.P
		case o.Net == 0:
			r.Push += o.P
		default:
			r.Loss += o.P
		}
	}
	for _, o := range r.Outcomes {
		r.Variance += (o.Net - r.Mean) * (o.Net - r.Mean) * o.P
	}
	r.SD = math.Sqrt(r.Variance)
	r.VolatilityIndex = 1.645 * r.SD
	if n := len(r.Outcomes); n > 0 {
		r.MaxWin = max(r.Outcomes[n-1].Net, 0)
		r.MaxLoss = max(-r.Outcomes[0].Net, 0)
	}
	return r
}

// jdist is a hand's distribution of net, by the dealer's final outcome
// (split hands, for their joint law) or all in [0] (unsplit hands).
type jdist [outcomes]ndist

func (j *jdist) at(k int) ndist {
	if j[k] == nil {
		j[k] = ndist{}
	}
	return j[k]
}

func (j *jdist) addScaled(e *jdist, p float64) {
	for k := range e {
		if e[k] != nil {
			j.at(k).addScaled(e[k], p)
		}
	}
}

type netMemoKey struct {
	pol, ctx int
	id       int32
}

// netState is the distributions' memo of one solver (one up card).
type netState struct {
	memo map[netMemoKey]*jdist
	pol  int
}

// netPlay is the play of the strategy being distributed at hand h: the
// play its expectation was computed with (nodeTD, nodeCD), or the
// dealer's rule for the mimic.
func (s *solver) netPlay(ns *netState, h hand, x pack) (hand, play) {
	if ns.pol == polMimic {
		switch {
		case s.mustDeclare(h):
			return h, playDeclare11
		case h.c.Total() == 21, s.canStand(h) && !s.p.DealerDraws(h.c):
			return h, playStand
		}
		return h, playHit
	}
	if ns.pol == polTD {
		h2, c := s.tdPlay(h)
		if c != playBest {
			return h2, c
		}
		h = h2
	}
	if h.split && x.get(int(h.pair)) != 1 {
		return h, s.splitChoice(h)
	}
	_, c := s.bestCD(h, x)
	return h, c
}

// netOf is the distribution of hand h (not bust) played on by the
// strategy, in W-space (a dealer blackjack left out under a peek).
func (s *solver) netOf(ns *netState, h hand, x pack) *jdist {
	h = s.number(h)
	key := netMemoKey{ns.pol, ctxOf(h, x), h.id}
	if d, ok := ns.memo[key]; ok {
		return d
	}
	h2, c := s.netPlay(ns, h, x)
	h2 = s.number(h2)
	d := &jdist{}
	switch c {
	case playDeclare1:
		d = s.netOf(ns, s.declared(h2, 1), x)
	case playDeclare11:
		d = s.netOf(ns, s.declared(h2, 11), x)
	case playStand:
		s.netStand(d, h2, x, 1, 1)
	case playDouble:
		sh := s.shoe(h2.comp + x)
		n := sh.Total()
		for k := 0; k < kinds; k++ {
			if sh[k] > 0 {
				s.netStand(d, s.draw(h2, k), x, 2, float64(sh[k])/float64(n))
			}
		}
	default: // hit
		sh := s.shoe(h2.comp + x)
		n := sh.Total()
		for k := 0; k < kinds; k++ {
			if sh[k] == 0 {
				continue
			}
			p := float64(sh[k]) / float64(n)
			if c := s.draw(h2, k); c.id == bustNode {
				s.netBust(d, c.comp+x, h.split, 1, p)
			} else {
				d.addScaled(s.netOf(ns, c, x), p)
			}
		}
	}
	ns.memo[key] = d
	return d
}

// netStand adds p times hand h's settlement (stake units on it) against
// the dealer to d.
func (s *solver) netStand(d *jdist, h hand, x pack, stake, p float64) {
	if h.id == bustNode || h.c.Bust() {
		s.netBust(d, h.comp+x, h.split, stake, p)
		return
	}
	r := s.pay.row(h.c, h.split, h.split && h.pair == aceIdx, stake)
	dd := s.dealerFor(h, x)
	for k := range outcomes {
		if dd[k] == 0 || (s.peek && k == dBJ) {
			continue
		}
		slot := 0
		if h.split {
			slot = k
		}
		d.at(slot).add(r.net[k], p*dd[k])
	}
}

// netBust adds p times a busted hand (the cards rem removed) to d: lost
// whatever the dealer holds; a split hand's by the dealer's outcome.
func (s *solver) netBust(d *jdist, rem pack, split bool, stake, p float64) {
	if !split {
		d.at(0).add(-stake, p*s.weight(rem))
		return
	}
	dd := s.dealer(rem)
	for k := range outcomes {
		if dd[k] == 0 || (s.peek && k == dBJ) {
			continue
		}
		d.at(k).add(-stake, p*dd[k])
	}
}

// netRoots computes the distribution of the round for the CD, TD and
// mimic strategies under this up card (each per round given the up card),
// from the root hands of the CD and TD passes.
func (s *solver) netRoots(r *upResult) {
	saved := s.pol
	defer func() { s.pol = saved }()
	for i, roots := range [nPolNet][]rootHand{r.cd, r.td, r.td} {
		ns := &netState{memo: map[netMemoKey]*jdist{}, pol: i}
		if i != polMimic {
			s.pol = i
		}
		acc := ndist{}
		for _, rh := range roots {
			if rh.w == 0 {
				continue
			}
			s.netDealerGap = 0
			d, split, gap := s.netRoot(ns, rh)
			r.netDealerGap[i] = max(r.netDealerGap[i], s.netDealerGap)
			acc.addScaled(d, rh.w)
			if split {
				r.netSplit[i] += rh.w
				r.netGap[i] += rh.w * gap
			}
		}
		r.net[i] = acc
	}
}

// netRoot is the distribution of the round of root hand rh (given its
// cards), whether it splits, and a split's mean less its exact value
// (splitValue's; rounding only).
func (s *solver) netRoot(ns *netState, rh rootHand) (ndist, bool, float64) {
	h0 := s.number(hand{pair: -1}.with(rh.x).with(rh.y))
	pbj := rh.pbj
	out := ndist{}
	if rh.bj {
		pay := s.pay.of(h0.c, false, false)
		switch {
		case rh.evenMoney && ns.pol != polMimic:
			out.add(1, 1)
		case rh.insure && ns.pol != polMimic:
			out.add(pay[dBJ].units+1, pbj)
			out.add(pay[d18].units-0.5, 1-pbj)
		default:
			out.add(pay[dBJ].units, pbj)
			out.add(pay[d18].units, 1-pbj)
		}
		return out, false, 0
	}
	var code Code
	if ns.pol == polMimic {
		code = Code{Act: Hit} // played by netPlay from the start
	} else {
		code = rh.cands[rh.best].code
	}
	var w ndist // W-space
	split, gap := false, 0.0
	switch code.Act {
	case Surrender:
		out.add(s.surBJ, pbj)
		out.add(s.surOther, 1-pbj)
		return out, false, 0
	case Split:
		exact := rh.cands[rh.best].v[sEV]
		if s.peek {
			exact += pbj
		}
		w = s.netSplit(ns, rh.x)
		gap = w.mean() - exact
		split = true
	default:
		h := h0
		if code.Declare != 0 {
			h = s.declared(h0, int(code.Declare))
		}
		d := &jdist{}
		switch {
		case ns.pol == polMimic:
			d = s.netOf(ns, h, 0)
		case code.Act == Stand:
			s.netStand(d, h, 0, 1, 1)
		case code.Act == Double:
			sh := s.shoe(h.comp)
			n := sh.Total()
			for k := 0; k < kinds; k++ {
				if sh[k] > 0 {
					s.netStand(d, s.draw(h, k), 0, 2, float64(sh[k])/float64(n))
				}
			}
		default: // hit
			sh := s.shoe(h.comp)
			n := sh.Total()
			for k := 0; k < kinds; k++ {
				if sh[k] == 0 {
					continue
				}
				p := float64(sh[k]) / float64(n)
				if c := s.draw(h, k); c.id == bustNode {
					s.netBust(d, c.comp, false, 1, p)
				} else {
					d.addScaled(s.netOf(ns, c, 0), p)
				}
			}
		}
		w = d.at(0)
	}
	if rh.insure && ns.pol != polMimic {
		// Half the stake at 2:1 on a dealer blackjack: under a peek the
		// blackjack's unit comes back, every other outcome loses the half.
		// (Never taken off the top of a full shoe: tens are under 1/3.)
		for k, v := range w {
			out[k-netKey(0.5)] += v
		}
		if s.peek {
			out.add(0, pbj)
		}
		return out, split, gap
	}
	out.addScaled(w, 1)
	if s.peek {
		out.add(-1, pbj)
	}
	return out, split, gap
}

// netSplit is the W-space distribution of splitting the pair of kind P
// (see the top of the file). It follows splitValue step for step with
// distributions for values: each hand's law, jointly with the dealer's
// final outcome, from D_j (j pair cards removed), a random non-pair card
// removed by the same identity (it is linear in the law), the second
// round's chain to its endings — the kinds of the hands' second cards, and
// which is the first hand's — and at each ending the hands combined
// independently given the dealer's outcome. Its mean is splitValue's
// exactly (to rounding; the test checks it against the edge).
func (s *solver) netSplit(ns *netState, P int) ndist {
	maxHands := 2
	for maxHands < s.base[P] && s.maySplit(P, maxHands) {
		maxHands++
	}
	D := s.base
	D[P] -= 2
	p, n := D[P], D.Total()
	start := hand{comp: pack(0).add(P), c: rules.Count{}.Add(kindCard[P]), split: true, pair: int8(P)}
	// parts(k): the hand started from P with k other pair cards removed,
	// its second card a non-pair (weighted by its probability), the pair
	// (given it), any.
	type partsD struct{ nonPair, pair, any *jdist }
	partsMemo := map[int]*partsD{}
	parts := func(k int) *partsD {
		if e, ok := partsMemo[k]; ok {
			return e
		}
		x := pack(0).addN(P, k)
		sh := s.shoe(start.comp + x)
		tot := sh.Total()
		e := &partsD{nonPair: &jdist{}, pair: &jdist{}, any: &jdist{}}
		for r := 0; r < kinds; r++ {
			if sh[r] == 0 {
				continue
			}
			pr := float64(sh[r]) / float64(tot)
			d := s.netOf(ns, s.draw(start, r), x)
			if r == P {
				e.pair = d
			} else {
				e.nonPair.addScaled(d, pr)
			}
			e.any.addScaled(d, pr)
		}
		partsMemo[k] = e
		return e
	}
	const (
		fNonPair = iota
		fPair
		fAny
	)
	// reduced is the law from D_a less m random non-pair cards (splitValue's).
	redMemo := map[[3]int]*jdist{}
	var reduced func(f, a, m int) *jdist
	reduced = func(f, a, m int) *jdist {
		if m == 0 {
			switch f {
			case fNonPair:
				return parts(a + 1).nonPair
			case fPair:
				return parts(a).pair
			}
			return parts(a + 1).any
		}
		if p-a <= 0 {
			return reduced(f, a, m-1)
		}
		key := [3]int{f, a, m}
		if d, ok := redMemo[key]; ok {
			return d
		}
		q := float64(p-a) / float64(n-a-(m-1))
		d := &jdist{}
		d.addScaled(reduced(f, a, m-1), 1/(1-q))
		d.addScaled(reduced(f, a+1, m-1), -q/(1-q))
		redMemo[key] = d
		return d
	}
	const (
		firstOpen = iota
		firstNonPair
		firstPair
		firstAny
	)
	// An ending of the second round: h hands made from a pair cards and b
	// non-pair second cards dealt, u hands taking any card, the kind of the
	// first hand's second card.
	type ending struct{ h, a, b, u, first int }
	origOnly := !s.peek && s.p.DealerBlackjackTakes == rules.TakesOriginal
	endMemo := map[ending]ndist{}
	endMean := map[ending]float64{}
	endDist := func(e ending) ndist {
		if d, ok := endMemo[e]; ok {
			return d
		}
		type group struct {
			d     *jdist
			count int
			first bool
		}
		var gs []group
		if e.b > 0 {
			q := float64(p-e.a) / float64(n-e.a-(e.b-1))
			np := &jdist{}
			np.addScaled(reduced(fNonPair, e.a, e.b-1), 1/(1-q))
			gs = append(gs, group{np, e.b, e.first == firstNonPair})
		}
		if kept := e.a - (e.h - 2); kept > 0 {
			gs = append(gs, group{reduced(fPair, e.a, e.b), kept, e.first == firstPair})
		}
		if e.u > 0 {
			gs = append(gs, group{reduced(fAny, e.a, e.b), e.u, e.first == firstAny || e.first == firstOpen})
		}
		out := ndist{}
		for k := range outcomes {
			// The dealer's outcome k has the same probability in every
			// hand's law (each is the dealer's from D_a less b non-pair
			// cards): the first group's.
			mk := 0.0
			if gs[0].d[k] != nil {
				mk = gs[0].d[k].mass()
			}
			for _, g := range gs[1:] {
				m := 0.0
				if g.d[k] != nil {
					m = g.d[k].mass()
				}
				s.netDealerGap = max(s.netDealerGap, math.Abs(m-mk))
			}
			if mk == 0 {
				continue
			}
			d := ndist{0: 1}
			for _, g := range gs {
				c := ndist{}
				if g.d[k] != nil {
					c.addScaled(g.d[k], 1/g.d[k].mass())
				}
				for i := range g.count {
					ci := c
					if origOnly && k == dBJ {
						// dealer_blackjack_takes=original: the box's
						// original unit, on the first hand, is lost unless
						// it busted; the other hands lose only what busted
						// (each split hand's law carries −½ for it).
						ci = bjShare(c, g.first && i == 0)
					}
					d = conv(d, ci)
				}
			}
			out.addScaled(d, mk)
		}
		endMemo[e], endMean[e] = out, out.mean()
		return out
	}
	type mix map[ending]float64
	// inOrder lists a mixture's endings in one order (sums made in map
	// order could differ in their last bits from one run to the next).
	inOrder := func(m mix) []ending {
		es := make([]ending, 0, len(m))
		for e := range m {
			es = append(es, e)
		}
		sort.Slice(es, func(i, j int) bool {
			x, y := es[i], es[j]
			for _, d := range [5]int{x.h - y.h, x.a - y.a, x.b - y.b, x.u - y.u, x.first - y.first} {
				if d != 0 {
					return d < 0
				}
			}
			return false
		})
		return es
	}
	mean := func(m mix) float64 {
		v := 0.0
		for _, e := range inOrder(m) {
			endDist(e)
			v += m[e] * endMean[e]
		}
		return v
	}
	add := func(m mix, o mix, pr float64) {
		for e, q := range o {
			m[e] += pr * q
		}
	}
	chainMemo := map[[5]int]mix{}
	var chain func(h, w, a, b, first int) mix
	next := func(h, w, a, b, first, kind int) mix {
		if first == firstOpen {
			first = kind
		}
		if w == 0 {
			return mix{{h, a, b, 0, first}: 1}
		}
		return chain(h, w, a, b, first)
	}
	chain = func(h, w, a, b, first int) mix {
		if !s.maySplit(P, h) || h >= maxHands {
			return mix{{h, a, b, w, first}: 1}
		}
		key := [5]int{h, w, a, b, first}
		if m, ok := chainMemo[key]; ok {
			return m
		}
		q := float64(p-a) / float64(n-a-b)
		m := mix{}
		add(m, next(h, w-1, a, b+1, first, firstNonPair), 1-q)
		if q > 0 {
			re := chain(h+1, w+1, a+1, b, first)
			if s.pol == polCD && !s.alwaysResplit {
				if keep := next(h, w-1, a+1, b, first, firstPair); mean(keep) > mean(re) {
					re = keep
				}
			}
			add(m, re, q)
		}
		chainMemo[key] = m
		return m
	}
	var firstOnly func(h int) mix
	firstOnly = func(h int) mix {
		a := h - 2
		if !s.maySplit(P, h) || h >= maxHands {
			return mix{{h, a, 0, h, firstAny}: 1}
		}
		q := float64(p-a) / float64(n-a)
		m := mix{{h, a, 1, h - 1, firstNonPair}: 1 - q}
		if q > 0 {
			re := firstOnly(h + 1)
			if s.pol == polCD && !s.alwaysResplit {
				if keep := (mix{{h, a + 1, 0, h - 1, firstPair}: 1}); mean(keep) > mean(re) {
					re = keep
				}
			}
			add(m, re, q)
		}
		return m
	}
	var ends mix
	if s.p.ResplitHands == rules.ResplitFirst {
		ends = firstOnly(2)
	} else {
		ends = chain(2, 2, 0, 0, firstOpen)
	}
	out := ndist{}
	for _, e := range inOrder(ends) {
		out.addScaled(endDist(e), ends[e])
	}
	return out
}

// bjShare is a split hand's law against a dealer blackjack that takes the
// original stake only: its −½ share of the box's loss (payTable.row) made
// the whole unit on the box's first hand, nothing on the others.
func bjShare(c ndist, first bool) ndist {
	half := netKey(-0.5)
	v, ok := c[half]
	if !ok {
		return c
	}
	out := ndist{}
	for k, w := range c {
		if k != half {
			out[k] = w
		}
	}
	if first {
		out[netKey(-1)] += v
	} else {
		out[0] += v
	}
	return out
}
