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
// A split round is approximated: its hands are taken as independent given
// the dealer's final outcome, each distributed as a split hand played from
// the shoe less the pair and one other pair card (the split method's
// D₁, see splitValue), the number of hands and the kinds of their second
// cards from the second round's chain with every new pair resplit while
// the rules allow. The approximation's mean differs from the exact split
// value by a small amount (SplitAdjust); that much probability is moved
// between the outcomes −1 and +1 so that the mean is the exact value, and
// the distribution's mean is then the edge's to rounding.

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
	// SplitRounds is the probability of a round with a split (its
	// distribution approximated, above); SplitAdjust the probability
	// moved between −1 and +1 to set those rounds' mean exactly.
	SplitRounds float64 `json:"split_rounds"`
	SplitAdjust float64 `json:"split_adjust"`
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
	var split, adj [nPolNet]float64
	for i := range acc {
		acc[i] = ndist{}
	}
	for up, r := range ups {
		pu := float64(full[up]) / N
		for i := range acc {
			acc[i].addScaled(r.net[i], pu)
			split[i] += pu * r.netSplit[i]
			adj[i] += pu * r.netAdjust[i]
		}
	}
	out := &NetResult{}
	for i, d := range []*NetDistribution{&out.CD, &out.TD, &out.Mimic} {
		*d = acc[i].summary([]string{"cd", "td", "mimic"}[i])
		d.SplitRounds, d.SplitAdjust = split[i], adj[i]
	}
	return out, nil
}

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
			d, split, moved := s.netRoot(ns, rh)
			acc.addScaled(d, rh.w)
			if split {
				r.netSplit[i] += rh.w
				r.netAdjust[i] += rh.w * moved
			}
		}
		r.net[i] = acc
	}
}

// netRoot is the distribution of the round of root hand rh (given its
// cards), whether it splits, and the probability moved to set a split's
// mean (see the top of the file).
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
	split, moved := false, 0.0
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
		w, moved = s.netSplit(ns, rh.x, exact)
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
		return out, split, moved
	}
	out.addScaled(w, 1)
	if s.peek {
		out.add(-1, pbj)
	}
	return out, split, moved
}

// netSplit is the W-space distribution of splitting the pair of kind P
// (approximated, see the top of the file), its mean set to exact, and the
// probability moved to set it.
func (s *solver) netSplit(ns *netState, P int, exact float64) (ndist, float64) {
	x1 := pack(0).add(P)
	start := hand{comp: pack(0).add(P), c: rules.Count{}.Add(kindCard[P]), split: true, pair: int8(P)}
	sh := s.shoe(start.comp + x1)
	n := sh.Total()
	var nonPair, pair, anyCard jdist
	for r := 0; r < kinds; r++ {
		if sh[r] == 0 {
			continue
		}
		p := float64(sh[r]) / float64(n)
		d := s.netOf(ns, s.draw(start, r), x1)
		if r == P {
			pair.addScaled(d, 1)
		} else {
			nonPair.addScaled(d, p)
		}
		anyCard.addScaled(d, p)
	}
	// The second round's chain (splitValue's), every new pair resplit
	// while allowed: the endings by (non-pair hands, pairs kept, hands
	// taking any card).
	maxHands := 2
	for maxHands < s.base[P] && s.maySplit(P, maxHands) {
		maxHands++
	}
	D := s.base
	D[P] -= 2
	pp, nn := D[P], D.Total()
	ends := map[[3]int]float64{}
	var chain func(h, w, a, b int, prob float64)
	chain = func(h, w, a, b int, prob float64) {
		if w == 0 {
			ends[[3]int{b, a - (h - 2), 0}] += prob
			return
		}
		if !s.maySplit(P, h) || h >= maxHands {
			ends[[3]int{b, a - (h - 2), w}] += prob
			return
		}
		q := float64(pp-a) / float64(nn-a-b)
		if q < 1 {
			chain(h, w-1, a, b+1, prob*(1-q))
		}
		if q > 0 {
			chain(h+1, w+1, a+1, b, prob*q)
		}
	}
	chain(2, 2, 0, 0, 1)
	out := ndist{}
	for k := range outcomes {
		mk := 0.0
		if anyCard[k] != nil {
			mk = anyCard[k].mass()
		}
		if mk == 0 {
			continue
		}
		cond := func(j *jdist) ndist {
			if j[k] == nil {
				return nil
			}
			m := j[k].mass()
			c := ndist{}
			c.addScaled(j[k], 1/m)
			return c
		}
		parts := [3]ndist{cond(&nonPair), cond(&pair), cond(&anyCard)}
		for e, prob := range ends {
			d := ndist{0: 1}
			for i, cnt := range e {
				for range cnt {
					if parts[i] == nil {
						parts[i] = parts[2] // a kind of hand of no weight here
					}
					d = conv(d, parts[i])
				}
			}
			out.addScaled(d, mk*prob)
		}
	}
	// Set the mean to the exact split value: move δ between −1 and +1.
	delta := (exact - out.mean()) / 2
	from, to := netKey(-1), netKey(1)
	if delta < 0 {
		from, to, delta = to, from, -delta
	}
	if out[from] < delta {
		delta = out[from] // cannot happen for any profile (tested)
	}
	out[from] -= delta
	out[to] += delta
	return out, delta
}
