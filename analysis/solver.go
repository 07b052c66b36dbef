package analysis

import (
	"math"

	"sabot/rules"
)

// Statistics carried with every value, each weighted by probability: the
// expected net (per unit of the hand's initial stake), the hand's results,
// its expected stake, doubles, and the weight of losing only to a dealer
// blackjack under dealer_blackjack_takes=original (see split).
const (
	sEV = iota
	sWin
	sPush
	sLose
	sStake
	sDouble
	sBJLoss
	nStats
)

type val [nStats]float64

func (v *val) addScaled(w *val, p float64) {
	for i := range v {
		v[i] += p * w[i]
	}
}

func (v val) scaled(p float64) val {
	for i := range v {
		v[i] *= p
	}
	return v
}

func (v val) plus(w val) val {
	for i := range v {
		v[i] += w[i]
	}
	return v
}

// A hand: its cards, their rules.Count, and whether it was made by splitting
// (pair is then the pair's kind, else -1).
type hand struct {
	comp  pack
	c     rules.Count
	split bool
	pair  int8
}

func (h hand) with(k int) hand {
	h.comp = h.comp.add(k)
	h.c = h.c.Add(kindCard[k])
	return h
}

func (h hand) declare(v int) hand {
	h.c = h.c.Declare(v)
	return h
}

// memoKey identifies a hand within one context (see ctxOf): its cards,
// packed, and in the top bits what the cards do not tell: the declared value
// (AR-11, VE-13) and whether both of the first two cards were Aces (which
// fixes how many Aces came after the declaration).
func memoKey(h hand) uint64 {
	k := uint64(h.comp)
	switch h.c.Declared {
	case 1:
		k |= 1 << 60
	case 11:
		k |= 2 << 60
	}
	if h.c.Declared != 0 && h.c.Aces-h.c.LateAces == 2 {
		k |= 1 << 62
	}
	return k
}

// ctxOf numbers the contexts a hand is played in: 0 for the hand of an
// unsplit round, else the split pair's kind and the number k of the box's
// other pair cards removed.
func ctxOf(h hand, x pack) int {
	if !h.split {
		return 0
	}
	return 1 + int(h.pair)*8 + x.get(int(h.pair))
}

const contexts = 1 + kinds*8

// Policies: the composition-dependent optimum, and a total-dependent
// strategy table.
const (
	polCD = iota
	polTD
)

// solver analyses every round under one dealer up card. It belongs to one
// goroutine.
//
// Values are kept in "W-space": under a peeking dealer (rules.Peek) with an
// Ace or ten up, a hand's value is its expectation times the probability
// that the dealer has no blackjack given the cards seen. Then the player's
// draws use the plain shoe and the dealer's distribution simply leaves out
// the blackjack, while decisions still compare conditional expectations
// (the factor is common to every action at a node); the root adds the
// blackjack back. Elsewhere W-space is plain expectation and a dealer
// blackjack is one of the dealer's outcomes.
type solver struct {
	p     *rules.Profile
	pay   *payTable
	dg    *dealerGraph
	up    int
	base  Counts         // the full shoe less the up card
	peek  bool           // W-space leaves out the dealer blackjack
	bjUp  bool           // the up card is an Ace or a ten
	noBJ  bool           // W-space weights need P(no dealer blackjack)
	dc    map[pack]int32 // removal → index in dists
	dists slab[[outcomes]float64]
	buf   []float64
	memo  [2][contexts]map[uint64]int32 // → index in vals
	vals  slab[val]
	pol   int
	// alwaysResplit makes the CD policy resplit whenever it may (the TD
	// policy always does); the split test uses it.
	alwaysResplit bool
	// exhaustiveStand values standing at every total, 11 or less too; the
	// test of standWorthy uses it.
	exhaustiveStand bool
	td              *tdColumn
	seen            []hand // hands of unsplit rounds met by the CD pass, for the TD weights
	split           [2][kinds]val
	// surrender's settlement: per unit, against a dealer blackjack and not.
	surBJ, surOther float64
}

func newSolver(p *rules.Profile, up int) *solver {
	s := &solver{p: p, pay: newPayTable(p), dg: newDealerGraph(p, up), up: up, base: FullShoe(p)}
	s.base[up]--
	s.bjUp = up == aceIdx || up == tenIdx
	s.peek = s.bjUp && p.HoleCard == rules.Peek
	s.dc = make(map[pack]int32, 4096)
	s.surBJ, s.surOther = surrenderPays(p)
	return s
}

// shoe returns the shoe with the cards of rem removed.
func (s *solver) shoe(rem pack) Counts { return s.base.minus(rem) }

// pBJ is the probability that the dealer's hole (or second) card makes a
// blackjack, given the removed cards.
func (s *solver) pBJ(rem pack) float64 {
	if !s.bjUp {
		return 0
	}
	sh := s.shoe(rem)
	n := sh.Total()
	if n == 0 {
		return 0
	}
	if s.up == aceIdx {
		return float64(sh[tenIdx]) / float64(n)
	}
	return float64(sh[aceIdx]) / float64(n)
}

// weight is a finished hand's W-space weight: P(no dealer blackjack) when
// W-space leaves the blackjack out, else 1.
func (s *solver) weight(rem pack) float64 {
	if s.peek {
		return 1 - s.pBJ(rem)
	}
	return 1
}

// dealer returns the dealer's distribution with the cards rem removed. The
// pointer is valid until the next call.
func (s *solver) dealer(rem pack) *[outcomes]float64 {
	if i, ok := s.dc[rem]; ok {
		return s.dists.at(i)
	}
	sh := s.shoe(rem)
	i, d := s.dists.alloc()
	s.dg.dist(&sh, d, &s.buf)
	s.dc[rem] = i
	return d
}

// stand settles hand h (stake units on it) against the dealer.
func (s *solver) stand(h hand, x pack, stake float64) val {
	rem := h.comp + x
	if h.c.Bust() {
		return s.bust(rem, stake)
	}
	d := s.dealer(rem)
	pay := s.pay.of(h.c, h.split)
	var v val
	w := 0.0
	for k := 0; k < outcomes; k++ {
		q := d[k]
		if q == 0 || (s.peek && k == dBJ) {
			continue
		}
		w += q
		o := &pay[k]
		u := o.units * stake
		if o.origOnly && o.res < 0 {
			// dealer_blackjack_takes=original: the box loses its original
			// unit only. An unsplit hand loses 1, doubled or not. After a
			// split the original unit is lost once for the box: each hand
			// bears half of it, which is exact for one split (the hands
			// are exchangeable) and makes the post-split play optimise the
			// right objective; with resplits it is an approximation.
			if h.split {
				u = -0.5
				v[sBJLoss] += q
			} else {
				u = -1
			}
		}
		v[sEV] += q * u
		switch o.res {
		case 1:
			v[sWin] += q
		case 0:
			v[sPush] += q
		default:
			v[sLose] += q
		}
	}
	v[sStake] = stake * w
	if stake > 1 {
		v[sDouble] = w
	}
	return v
}

// bust is a busted hand: lost whatever the dealer holds (ES-04), and Settle
// says so for every dealer hand (checked in newAnalysis).
func (s *solver) bust(rem pack, stake float64) val {
	w := s.weight(rem)
	var v val
	v[sEV] = -stake * w
	v[sLose] = w
	v[sStake] = stake * w
	if stake > 1 {
		v[sDouble] = w
	}
	return v
}

// hit draws one card to h and plays on.
func (s *solver) hit(h hand, x pack) val {
	sh := s.shoe(h.comp + x)
	n := sh.Total()
	var v val
	for k := 0; k < kinds; k++ {
		if sh[k] == 0 {
			continue
		}
		p := float64(sh[k]) / float64(n)
		c := h.with(k)
		var cv val
		if c.c.Bust() {
			cv = s.bust(c.comp+x, 1)
		} else {
			cv = s.node(c, x)
		}
		v.addScaled(&cv, p)
	}
	return v
}

// double doubles the stake and draws exactly one card.
func (s *solver) double(h hand, x pack) val {
	sh := s.shoe(h.comp + x)
	n := sh.Total()
	var v val
	for k := 0; k < kinds; k++ {
		if sh[k] == 0 {
			continue
		}
		cv := s.stand(h.with(k), x, 2)
		v.addScaled(&cv, float64(sh[k])/float64(n))
	}
	return v
}

// pos is a hand as the rules on splitting and doubling read it: pair says
// its two cards are a pair, hands the hands of its box.
func (s *solver) pos(h hand, pair bool, hands int) rules.HandPos {
	return rules.HandPos{Count: h.c, Pair: pair, Split: h.split, SplitAces: h.split && h.pair == aceIdx, Hands: hands}
}

// oneCard reports a split Ace that has its card and takes no more (ES-09,
// VE-14).
func (s *solver) oneCard(h hand) bool { return s.p.OneCard(s.pos(h, false, 0)) }

// mustDeclare reports a hand that must declare its Ace 1 or 11 before it
// acts (AR-11): two cards with an Ace, not yet declared, not 21, able to act.
func (s *solver) mustDeclare(h hand) bool {
	return s.p.DeclareInitialAce && h.c.N == 2 && h.c.Aces > 0 && h.c.Declared == 0 &&
		!h.c.TwoCard21() && !s.oneCard(h)
}

// tenAceChoice reports a split ten-value with an Ace as its second card,
// which may count the Ace 1 (VE-13).
func (s *solver) tenAceChoice(h hand) bool {
	return s.p.SplitTenAceChoice && h.split && h.pair == tenIdx && h.c.N == 2 &&
		h.c.Aces == 1 && h.c.Declared == 0
}

func (s *solver) canDouble(h hand) bool { return s.p.MayDouble(s.pos(h, false, 0)) }

// maySplit reports whether a pair of kind P may be split, its box holding
// hands hands (1: the initial pair; more: a pair made again after a split).
func (s *solver) maySplit(P, hands int) bool {
	h := hand{pair: -1}.with(P).with(P)
	if hands > 1 {
		h.split, h.pair = true, int8(P)
	}
	return s.p.MaySplit(s.pos(h, true, hands))
}

func (s *solver) canStand(h hand) bool { return !s.p.MustDraw(h.c) }

// standWorthy reports whether standing can be better than hitting. At 11 or
// less it cannot: a hit cannot bust, every total it reaches settles at
// least as well against any dealer hand, and the dealer's distribution
// after one more random card is removed is, on average over that card, the
// distribution before (the chance of any dealer hand is a martingale as
// cards are drawn). So hitting is worth at least standing, exactly, and the
// analysis skips standing there.
func (s *solver) standWorthy(h hand) bool {
	return s.canStand(h) && (h.c.Total() > 11 || s.exhaustiveStand)
}

// node is the value of hand h (not bust) played on by the current policy.
func (s *solver) node(h hand, x pack) val {
	key := memoKey(h)
	m := s.memo[s.pol][ctxOf(h, x)]
	if m == nil {
		m = make(map[uint64]int32, 256)
		s.memo[s.pol][ctxOf(h, x)] = m
	}
	if i, ok := m[key]; ok {
		return *s.vals.at(i)
	}
	var v val
	if s.pol == polCD {
		v = s.nodeCD(h, x)
		if !h.split && x == 0 {
			s.seen = append(s.seen, h)
		}
	} else {
		v = s.nodeTD(h, x)
	}
	i, p := s.vals.alloc()
	*p = v
	m[key] = i
	return v
}

func better(a, b val) val {
	if b[sEV] > a[sEV] {
		return b
	}
	return a
}

func (s *solver) nodeCD(h hand, x pack) val {
	if s.mustDeclare(h) { // AR-11
		return better(s.node(h.declare(11), x), s.node(h.declare(1), x))
	}
	if s.tenAceChoice(h) { // VE-13: 21, or count the Ace 1 and play 11
		return better(s.stand(h, x, 1), s.node(h.declare(1), x))
	}
	// A hand of 21 ends without asking; a split Ace with its card is done.
	if h.c.Total() == 21 || (s.oneCard(h) && h.c.N >= 2) {
		return s.stand(h, x, 1)
	}
	v := s.hit(h, x)
	if s.standWorthy(h) {
		v = better(s.stand(h, x, 1), v)
	}
	if s.canDouble(h) {
		v = better(v, s.double(h, x))
	}
	return v
}

// splitParts holds, for one pair and the number k of the box's other pair
// cards removed, what the split needs: q the probability that the next card
// is the pair's kind, np the value of a split hand whose second card is not
// (normalised), pp the value of a split hand that got the pair's kind and is
// kept, any the value of a split hand with any second card.
type splitParts struct {
	q           float64
	np, pp, any val
}

func (s *solver) parts(P, k int) splitParts {
	x := pack(0).addN(P, k)
	start := hand{comp: pack(0).add(P), c: rules.Count{}.Add(kindCard[P]), split: true, pair: int8(P)}
	sh := s.shoe(start.comp + x)
	n := sh.Total()
	var sp splitParts
	var a val
	for r := 0; r < kinds; r++ {
		if sh[r] == 0 {
			continue
		}
		p := float64(sh[r]) / float64(n)
		v := s.node(start.with(r), x)
		if r == P {
			sp.q = p
			sp.pp = v
			continue
		}
		a.addScaled(&v, p)
	}
	sp.any = a.plus(sp.pp.scaled(sp.q))
	if sp.q < 1 {
		sp.np = a.scaled(1 / (1 - sp.q))
	}
	return sp
}

// splitValue is the W-space value of splitting a pair of kind P.
//
// Method (see docs/analysis.md): every split hand is valued with exact card
// removal of its own cards and of the box's other pair cards, but not of the
// other split hands' drawn cards — the "pair cards removed" method of MGP
// and k_c (bjstrat.net). With one split it is exact for a post-split
// strategy that depends on a hand's own cards: the two hands are then
// exchangeable and, by optional stopping, the dealer's cards after the
// second hand are distributed as if it had drawn nothing. With resplits the
// number of hands follows the pair cards drawn (a Markov chain over hands
// made and hands waiting), each hand valued with the pair cards removed at
// the time it takes its second card; the brute-force test measures its
// error on one deck.
func (s *solver) splitValue(P int) val {
	// The hands the box may reach: a pair made again is split again while
	// the rules allow it, and while the shoe holds the cards.
	maxHands := 2
	for maxHands < 4*s.p.Decks && s.maySplit(P, maxHands) {
		maxHands++
	}
	parts := make([]splitParts, maxHands)
	for k := 1; k < maxHands; k++ {
		parts[k] = s.parts(P, k)
	}
	type st struct{ h, pend int }
	memo := map[st]val{}
	var chain func(h, pend int) val
	chain = func(h, pend int) val {
		if pend == 0 {
			return val{}
		}
		if v, ok := memo[st{h, pend}]; ok {
			return v
		}
		sp := &parts[h-1]
		var v val
		if h == maxHands {
			v = sp.any.scaled(float64(pend))
		} else {
			v = sp.np.plus(chain(h, pend-1)).scaled(1 - sp.q)
			if sp.q > 0 {
				re := chain(h+1, pend+1)
				if s.pol == polCD && !s.alwaysResplit {
					// The optimum may keep a new pair rather than resplit it.
					re = better(re, sp.pp.plus(chain(h, pend-1)))
				}
				v.addScaled(&re, sp.q)
			}
		}
		memo[st{h, pend}] = v
		return v
	}
	v := chain(2, 2)
	if s.p.ChallengeSplitAce && P == aceIdx { // AR-10 on the second split Ace
		if ev := s.challengeEV(pack(0).addN(aceIdx, 2)); ev > 0 {
			v[sEV] += ev * s.weight(pack(0).addN(aceIdx, 2))
		}
	}
	return v
}

// challengeEV is the expectation, per unit of the hand's stake, of the
// Desafío (AR-10) — half the stake on the next card being ten-value, paid
// 2:1 — with the cards rem removed from the shoe.
func (s *solver) challengeEV(rem pack) float64 {
	sh := s.shoe(rem)
	q := float64(sh[tenIdx]) / float64(sh.Total())
	return 0.5 * (3*q - 1)
}

// weightOf is the probability that the player's first cards form the
// multiset c, in any order, dealt from the shoe under this up card.
func (s *solver) weightOf(c pack) float64 {
	n := c.size()
	N := s.base.Total()
	lw := lgamma(n + 1)
	for k := 0; k < kinds; k++ {
		m := c.get(k)
		if m == 0 {
			continue
		}
		if m > s.base[k] {
			return 0
		}
		lw += lgamma(s.base[k]+1) - lgamma(s.base[k]-m+1) - lgamma(m+1)
	}
	lw -= lgamma(N+1) - lgamma(N-n+1)
	return math.Exp(lw)
}

func lgamma(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}

// slab stores values in fixed chunks, so that growing it copies nothing and
// a pointer into it stays valid.
type slab[T any] struct {
	chunks [][]T
	n      int32
}

const slabChunk = 4096

func (s *slab[T]) alloc() (int32, *T) {
	if int(s.n)%slabChunk == 0 {
		s.chunks = append(s.chunks, make([]T, slabChunk))
	}
	i := s.n
	s.n++
	return i, &s.chunks[i/slabChunk][i%slabChunk]
}

func (s *slab[T]) at(i int32) *T { return &s.chunks[i/slabChunk][i%slabChunk] }
