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

// addScaled adds p·w to v. Written out: it runs for every card drawn to
// every hand, and the loop costs as much again as its work.
func (v *val) addScaled(w *val, p float64) {
	v[0] += p * w[0]
	v[1] += p * w[1]
	v[2] += p * w[2]
	v[3] += p * w[3]
	v[4] += p * w[4]
	v[5] += p * w[5]
	v[6] += p * w[6]
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
// (pair is then the pair's kind, else -1). id is its number in the solver's
// table of hands (see handNode), 0 while not looked up.
type hand struct {
	comp  pack
	c     rules.Count
	split bool
	pair  int8
	id    int32
	// 32 bytes, not 24: the compiler copies 24 bytes as two overlapping
	// 16-byte moves, and reading a copy just written that way stalls
	// (store forwarding fails); hands are copied at every call.
	_ [8]byte
}

func (h hand) with(k int) hand {
	h.comp = h.comp.add(k)
	h.c = h.c.Add(kindCard[k])
	h.id = 0
	return h
}

func (h hand) declare(v int) hand {
	h.c = h.c.Declare(v)
	h.id = 0
	return h
}

// handNode is a hand of the solver's table, numbered by memoKey: the memo
// tables are slices indexed by that number instead of maps, and drawing a
// card follows next instead of hashing the new hand.
type handNode struct {
	comp pack
	c    rules.Count
	next [kinds]int32 // the hand with one more card of each kind: 0 not yet numbered, bustNode over 21
	decl [2]int32     // the hand declared 1, 11 (AR-11, VE-13); 0 not yet numbered
}

const bustNode = -1

// number returns h with its number in the table, adding it if new.
func (s *solver) number(h hand) hand {
	if h.id != 0 {
		return h
	}
	return s.lookUp(h)
}

func (s *solver) lookUp(h hand) hand {
	key := memoKey(h)
	if id, ok := s.nodeIdx[key]; ok {
		h.id = id
		return h
	}
	h.id = int32(len(s.nodes))
	s.nodes = append(s.nodes, handNode{comp: h.comp, c: h.c})
	s.nodeIdx[key] = h.id
	return h
}

// draw returns h with one more card of kind k; its id is bustNode if it is
// over 21 (then only its comp is set).
func (s *solver) draw(h hand, k int) hand {
	h = s.number(h)
	c := s.next(h.id, k)
	if c == bustNode {
		h.comp, h.id = h.comp.add(k), bustNode
		return h
	}
	return s.handAt(h, c)
}

// handAt is h become the hand numbered id (its split and pair kept).
func (s *solver) handAt(h hand, id int32) hand {
	n := &s.nodes[id]
	h.comp, h.c, h.id = n.comp, n.c, id
	return h
}

// next is the number of the hand numbered id with one more card of kind k,
// bustNode if that is over 21. It is small enough to be inlined where the
// next table knows the card (the usual case); link does the rest.
func (s *solver) next(id int32, k int) int32 {
	if c := s.nodes[id].next[k]; c != 0 {
		return c
	}
	return s.link(id, k)
}

// link numbers the hand numbered id with one more card of kind k, and
// records it in id's next table.
func (s *solver) link(id int32, k int) int32 {
	n := &s.nodes[id]
	h := hand{comp: n.comp, c: n.c}.with(k)
	c := int32(bustNode)
	if !h.c.Bust() {
		c = s.lookUp(h).id
	}
	s.nodes[id].next[k] = c
	return c
}

// declared returns h with its Ace declared v (1 or 11), numbered.
func (s *solver) declared(h hand, v int) hand {
	h = s.number(h)
	i := 0
	if v == 11 {
		i = 1
	}
	if d := s.nodes[h.id].decl[i]; d != 0 {
		h.c, h.id = s.nodes[d].c, d
		return h
	}
	from := h.id
	h = s.number(h.declare(v))
	s.nodes[from].decl[i] = h.id
	return h
}

// memoSlot returns the slot of hand number id in table t, growing it to
// the number of hands.
func (s *solver) memoSlot(t *[]int32, id int32) *int32 {
	if int(id) >= len(*t) {
		*t = grow(*t, len(s.nodes))
	}
	return &(*t)[id]
}

// memoSlotOf returns the slot of hand number id in t, growing t to n
// (the number of hands).
func memoSlotOf[T any](t *[]T, id int32, n int) *T {
	if int(id) >= len(*t) {
		*t = grow(*t, n)
	}
	return &(*t)[id]
}

// grow returns t with length n, the new elements zero: the table's
// capacity beyond its length is kept zero (see reuse).
func grow[T any](t []T, n int) []T {
	if n <= cap(t) {
		return t[:n]
	}
	return append(t, make([]T, n-len(t))...)
}

// reuse returns t empty and zero to its capacity.
func reuse[T any](t []T) []T {
	t = t[:cap(t)]
	clear(t)
	return t[:0]
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
	return 1 + int(h.pair)*ctxPerPair + x.get(int(h.pair))
}

// ctxPerPair bounds k: the exact split values hands with up to
// 2·max_hands−3 other pair cards removed (13 for rules.MaxHands = 8).
const (
	ctxPerPair = 16
	contexts   = 1 + kinds*ctxPerPair
)

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
	base  Counts   // the full shoe less the up card
	peek  bool     // W-space leaves out the dealer blackjack
	bjUp  bool     // the up card is an Ace or a ten
	noBJ  bool     // W-space weights need P(no dealer blackjack)
	dc    remTable // removal → index in dists
	dists slab[[outcomes]float64]
	buf   []float64
	lbuf  dist4Buf
	batch batch
	// prefetchAll's walk: the epoch each hand was last walked in, by hand
	// number.
	walked    []uint32
	walkEpoch uint32
	// splitK: the most other pair cards a split hand of each kind is
	// valued with (set by splitValue).
	splitK [kinds]int
	// The table of hands, and by context the memo of values (1 + index in
	// vals, by policy), of dealer distributions (1 + index in dists) and
	// of standing (1 + index in vals, by stake: 1, 2), each indexed by
	// hand number.
	nodes   []handNode
	nodeIdx map[uint64]int32
	memo    [2][contexts][]int32
	dmemo   [contexts][]int32
	smemo   [2][contexts][]int32
	vals    slab[val]
	pol     int
	// alwaysResplit makes the CD policy resplit whenever it may (the TD
	// policy always does); the split test uses it.
	alwaysResplit bool
	// basicSplit plays every split hand by Nairn's basic strategy
	// (nairnPlay) instead of CDP1 (HandValues, SplitBasic).
	basicSplit bool
	// cdzSplit plays every split hand by Farmer's CDZ- (cdzChoice),
	// cdpSplit by his CDP (the optimum for each shoe a split hand is valued
	// from): HandValues, SplitCDZ and SplitCDP.
	cdzSplit, cdpSplit bool
	// netDealerGap is netSplit's check of its endings (NetDistributions).
	netDealerGap float64
	// exhaustiveStand values standing at every total, 11 or less too; the
	// test of standWorthy uses it.
	exhaustiveStand bool
	td              *tdColumn
	seen            []hand // hands of unsplit rounds met by the CD pass, for the TD weights
	// cdPlay is the CD pass's play at each unsplit hand, by hand number
	// (0 not played); agree, whether the table plays as the CD pass at a
	// hand and every hand after it (see agrees): [0] unsplit hands, [1+P]
	// split hands of pair P.
	cdPlay  []play
	agree   [1 + kinds][]uint8
	tdItems []tdItem
	// reach's tables, by hand number (see reach).
	reachW, levelW []float64
	level, nextLvl []int32
	// choice holds, by policy and pair kind, the play of each split hand
	// where it was made with one other pair card removed: the post-split
	// strategy every split hand follows (see splitChoice).
	choice [2][kinds][]play // by hand number; 0 not chosen yet
	// kmemo holds, by pair kind and hand number, the CD values of a split
	// hand for every k ≥ 2 (see nodeK): 1 + the index in vals of its
	// first lane, the others following.
	kmemo [2][kinds][]int32 // by policy
	// kdmemo holds, the same way, its dealer distributions (dealersK):
	// 1 + the index in kdists of its first lane's index in dists.
	kdmemo [kinds][]int32
	kdists []int32
	// cdSplits: the CD play splits the pair (reach weighs the TD rows).
	cdSplits [kinds]bool
	// surrender's settlement: per unit, against a dealer blackjack and not.
	surBJ, surOther float64
	// lgamma is log Γ(i) for i up to the shoe's size + 1 (weightOf).
	lgamma []float64
	// sm is splitValue's memo, kept from one call (and up card) to the next.
	sm splitMemo
}

// splitMemo holds splitValue's memos in flat tables indexed by their small
// arguments (a map's hashing and growth took a twentieth of a six-split
// analysis): an entry is set in the call whose generation it carries, so
// that a call need not clear them.
type splitMemo struct {
	gen    uint32
	r, c   []val
	rg, cg []uint32
	busy   bool // a call is under way: the tables are not reentrant
}

// start begins a call whose tables hold nr and nc entries.
func (m *splitMemo) start(nr, nc int) {
	if m.busy {
		panic("analysis: splitValue called within itself")
	}
	m.busy = true
	m.gen++
	if m.gen == 0 { // (wrapped: every stamp may be stale)
		clear(m.rg)
		clear(m.cg)
		m.gen = 1
	}
	if len(m.r) < nr {
		m.r, m.rg = make([]val, nr), make([]uint32, nr)
	}
	if len(m.c) < nc {
		m.c, m.cg = make([]val, nc), make([]uint32, nc)
	}
}

func newSolver(p *rules.Profile, up int) *solver { return newSolverReusing(p, up, nil) }

// newSolverReusing is newSolver, reusing the tables of old if not nil (a
// solver done with its up card): one worker analyses several up cards,
// and reusing saves most of the allocation and the page faults.
func newSolverReusing(p *rules.Profile, up int, old *solver) *solver {
	return newSolverGraph(p, up, newDealerGraph(p, up), old)
}

// newSolverGraph is newSolverReusing with the dealer's graph for p and up
// given (HandValues keeps them).
func newSolverGraph(p *rules.Profile, up int, g *dealerGraph, old *solver) *solver {
	s := &solver{p: p, pay: newPayTable(p), dg: g, up: up, base: FullShoe(p)}
	s.base[up]--
	s.bjUp = up == aceIdx || up == tenIdx
	s.peek = s.bjUp && p.HoleCard == rules.Peek
	s.surBJ, s.surOther = surrenderPays(p)
	var lgamma []float64
	if old != nil {
		lgamma = old.lgamma
	}
	s.lgamma = lgammas(lgamma, s.base.Total()+1)
	if old == nil {
		s.nodes = make([]handNode, 1, 4096) // number 0: not numbered
		s.nodeIdx = make(map[uint64]int32, 4096)
		return s
	}
	// The table of hands does not depend on the up card: it is kept.
	s.nodes, s.nodeIdx = old.nodes, old.nodeIdx
	s.dc = old.dc
	s.dc.reset()
	s.dists, s.vals = old.dists.reuse(), old.vals.reuse()
	s.buf, s.lbuf, s.seen, s.tdItems = old.buf, old.lbuf, old.seen[:0], old.tdItems
	s.reachW, s.levelW, s.level, s.nextLvl = old.reachW, old.levelW, old.level, old.nextLvl
	s.cdPlay = reuse(old.cdPlay)
	for i := range s.agree {
		s.agree[i] = reuse(old.agree[i])
	}
	s.walked, s.walkEpoch = old.walked, old.walkEpoch
	for pol := range s.memo {
		for c := range s.memo[pol] {
			s.memo[pol][c] = reuse(old.memo[pol][c])
		}
		for k := range s.choice[pol] {
			s.choice[pol][k] = reuse(old.choice[pol][k])
		}
	}
	for pol := range s.kmemo {
		for k := range s.kmemo[pol] {
			s.kmemo[pol][k] = reuse(old.kmemo[pol][k])
		}
	}
	for c := range s.dmemo {
		s.dmemo[c] = reuse(old.dmemo[c])
		s.smemo[0][c] = reuse(old.smemo[0][c])
		s.smemo[1][c] = reuse(old.smemo[1][c])
	}
	for k := range s.kdmemo {
		s.kdmemo[k] = reuse(old.kdmemo[k])
	}
	s.kdists = old.kdists[:0]
	s.sm = old.sm
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
	return s.pBJIn(&sh, sh.Total())
}

// pBJIn is pBJ for the shoe sh of n cards.
func (s *solver) pBJIn(sh *Counts, n int) float64 {
	if !s.bjUp || n == 0 {
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
	if !s.peek {
		return 1
	}
	sh := s.shoe(rem)
	return s.weightIn(&sh, sh.Total())
}

// weightIn is weight for the shoe sh of n cards.
func (s *solver) weightIn(sh *Counts, n int) float64 {
	if s.peek {
		return 1 - s.pBJIn(sh, n)
	}
	return 1
}

// dealer returns the dealer's distribution with the cards rem removed.
func (s *solver) dealer(rem pack) *[outcomes]float64 { return s.dists.at(s.dealerIndex(rem)) }

// dealerIndex returns the index in dists of the dealer's distribution with
// the cards rem removed, computing it if new.
func (s *solver) dealerIndex(rem pack) int32 {
	if i, ok := s.dc.get(rem); ok {
		return i
	}
	sh := s.shoe(rem)
	i, d := s.dists.alloc()
	s.dg.dist(&sh, d, &s.buf)
	s.dc.put(rem, i)
	return i
}

// batch holds the dealer distributions to compute together (dist4).
type batch struct {
	shoes [lanes]Counts
	outs  [lanes]*[outcomes]float64
	n     int
}

// batchAdd returns the index in dists of the dealer's distribution with
// the cards rem removed, adding it to the batch if new (it is computed when
// the batch is full or flushed).
func (s *solver) batchAdd(rem pack) int32 {
	if i, ok := s.dc.get(rem); ok {
		return i
	}
	i, d := s.dists.alloc()
	s.dc.put(rem, i)
	b := &s.batch
	b.shoes[b.n], b.outs[b.n] = s.shoe(rem), d
	if b.n++; b.n == lanes {
		s.batchFlush()
	}
	return i
}

// batchFlush computes the distributions of the batch.
func (s *solver) batchFlush() {
	b := &s.batch
	if b.n == 1 && !useAVX2 { // one shoe costs dist4 as much as two
		s.dg.dist(&b.shoes[0], b.outs[0], &s.buf)
	} else if b.n > 0 {
		s.dg.dist4(b.shoes[:b.n], b.outs[:b.n], &s.lbuf)
	}
	b.n = 0
}

// prefetchAll computes, in full batches, the dealer's distributions that
// the CD pass will stand on in the rounds without a split and in the split
// hands with one other pair card removed: it values every play at each
// hand of these, so it stands on every hand over 11 it meets, and on the
// card a double draws. (More or fewer would change no figure: the
// distributions are the same whenever computed.)
func (s *solver) prefetchAll() {
	s.walkEpoch++
	for x := 0; x < kinds; x++ {
		for y := x; y < kinds; y++ {
			h := hand{pair: -1}.with(x).with(y)
			if h.c.TwoCard21() || h.comp.get(x) > s.base[x] || h.comp.get(y) > s.base[y] {
				continue
			}
			s.walk(h, 0)
		}
	}
	s.walkEpoch++
	for P := 0; P < kinds; P++ {
		if !s.maySplit(P, 1) || s.base[P] < 2 {
			continue
		}
		x := pack(0).add(P)
		start := hand{split: true, pair: int8(P)}.with(P)
		sh := s.shoe(start.comp + x)
		for r := 0; r < kinds; r++ {
			if sh[r] > 0 {
				s.walk(s.draw(start, r), x)
			}
		}
		s.walkEpoch++
	}
	s.batchFlush()
}

// walk prefetches the distributions prefetchAll computes for hand h (not
// bust) and the hands it leads to, in the context of x, each hand once an
// epoch. Walking a hand twice is harmless but costs, so walk skips the
// hands walked already; prefetchAll's are two-card hands, all different,
// which walk reaches only from each other.
func (s *solver) walk(h hand, x pack) {
	h = s.number(h)
	if int(h.id) >= len(s.walked) {
		s.walked = grow(s.walked, len(s.nodes))
	}
	s.walked[h.id] = s.walkEpoch
	t := h.c.Total()
	if t >= 12 {
		s.prefetch(h, x)
	}
	if t == 21 || (s.oneCard(h) && h.c.N >= 2) {
		return
	}
	dbl := s.canDouble(h)
	sh := s.shoe(h.comp + x)
	for r := 0; r < kinds; r++ {
		if sh[r] == 0 {
			continue
		}
		id := s.next(h.id, r)
		if id == bustNode {
			continue
		}
		c := s.handAt(h, id)
		if dbl && c.c.Total() < 12 {
			s.prefetch(c, x)
		}
		if int(id) >= len(s.walked) || s.walked[id] != s.walkEpoch {
			s.walk(c, x)
		}
	}
}

// prefetch adds the dealer's distribution against hand h (numbered) in
// the context of x to the batch, and remembers it for dealerFor.
func (s *solver) prefetch(h hand, x pack) {
	if slot := s.memoSlot(&s.dmemo[ctxOf(h, x)], h.id); *slot == 0 {
		*slot = s.batchAdd(h.comp+x) + 1
	}
}

// dealerFor is the dealer's distribution against hand h (not bust) in the
// context of x, remembered by hand number.
func (s *solver) dealerFor(h hand, x pack) *[outcomes]float64 {
	h = s.number(h)
	slot := s.memoSlot(&s.dmemo[ctxOf(h, x)], h.id)
	if *slot != 0 {
		return s.dists.at(*slot - 1)
	}
	i := s.dealerIndex(h.comp + x)
	*slot = i + 1
	return s.dists.at(i)
}

// stand settles hand h (stake units on it) against the dealer. The value
// is remembered: both policies stand on the same hands, and doubles from
// different hands reach the same ones.
func (s *solver) stand(h hand, x pack, stake float64) val {
	rem := h.comp + x
	if h.id == bustNode || h.c.Bust() {
		return s.bust(rem, stake)
	}
	h = s.number(h)
	i := 0
	if stake > 1 {
		i = 1
	}
	ctx := ctxOf(h, x)
	if t := s.smemo[i][ctx]; int(h.id) < len(t) && t[h.id] != 0 {
		return *s.vals.at(t[h.id] - 1)
	}
	v := s.settle(s.pay.row(h.c, h.split, h.split && h.pair == aceIdx, stake), s.dealerFor(h, x), stake)
	j, p := s.vals.alloc()
	*p = v
	*s.memoSlot(&s.smemo[i][ctx], h.id) = j + 1
	return v
}

// settle values a hand (not bust; stake units on it) paid by r against the
// dealer's distribution d.
func (s *solver) settle(r *settleRow, d *[outcomes]float64, stake float64) val {
	skip := -1
	if s.peek {
		skip = dBJ
	}
	var v val
	w := 0.0
	for k := range outcomes {
		q := d[k]
		if q == 0 || k == skip {
			continue
		}
		w += q
		v[sEV] += q * r.net[k]
		v[r.stat[k]] += q
		if r.bjLoss[k] {
			v[sBJLoss] += q
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
func (s *solver) bust(rem pack, stake float64) val { return busted(s.weight(rem), stake) }

// addBust adds p·busted(w, 1) to v, leaving out the statistics busted
// leaves zero (adding p·0 = +0 changes no sum).
func (v *val) addBust(w, p float64) {
	v[sEV] += p * -w
	v[sLose] += p * w
	v[sStake] += p * w
}

// busted is a busted hand of W-space weight w.
func busted(w, stake float64) val {
	var v val
	v[sEV] = -stake * w
	v[sLose] = w
	v[sStake] = stake * w
	if stake > 1 {
		v[sDouble] = w
	}
	return v
}

// hit draws one card to h and plays on. The new hands are followed by
// number, most of them found in the memo (node for the others), and a bust
// is weighed in the shoe at hand.
func (s *solver) hit(h hand, x pack) val {
	h = s.number(h)
	sh := s.shoe(h.comp + x)
	n := sh.Total()
	memo := &s.memo[s.pol][ctxOf(h, x)]
	var v val
	for k := 0; k < kinds; k++ {
		if sh[k] == 0 {
			continue
		}
		p := float64(sh[k]) / float64(n)
		c := s.next(h.id, k)
		if c == bustNode {
			sh[k]--
			w := s.weightIn(&sh, n-1)
			sh[k]++
			v.addBust(w, p)
			continue
		}
		cv := s.memoized(memo, c)
		if cv == nil {
			w := s.node(s.handAt(h, c), x)
			cv = &w
		}
		v.addScaled(cv, p)
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
		cv := s.stand(s.draw(h, k), x, 2)
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

// memoized is the value of the hand numbered id in memo (the current
// policy's memo of its context), nil if not known yet.
func (s *solver) memoized(memo *[]int32, id int32) *val {
	if t := *memo; int(id) < len(t) && t[id] != 0 {
		return s.vals.at(t[id] - 1)
	}
	return nil
}

// node is the value of hand h (not bust) played on by the current policy.
func (s *solver) node(h hand, x pack) val {
	h = s.number(h)
	if v := s.memoized(&s.memo[s.pol][ctxOf(h, x)], h.id); v != nil {
		return *v
	}
	if s.pol == polTD && s.agrees(h) {
		// The table plays here and after as the CD pass did: its value is
		// the CD pass's, computed by the same operations (see agrees).
		ctx := ctxOf(h, x)
		if t := s.memo[polCD][ctx]; int(h.id) < len(t) && t[h.id] != 0 {
			*s.memoSlot(&s.memo[polTD][ctx], h.id) = t[h.id]
			return *s.vals.at(t[h.id] - 1)
		}
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
	// The table may have grown while h was played.
	*s.memoSlot(&s.memo[s.pol][ctxOf(h, x)], h.id) = i + 1
	return v
}

// play is a decision at a hand: stand, hit, double, or declare its Ace
// (AR-11, VE-13) and play on.
type play uint8

const (
	playStand play = iota + 1
	playHit
	playDouble
	playDeclare1
	playDeclare11
	// playBest: the best play (nodeCD), where the table has no row.
	playBest
)

// nodeCD plays hand h by the composition-dependent strategy: the best play
// for its cards, except that a split hand plays as the first split hand
// would (see splitChoice).
func (s *solver) nodeCD(h hand, x pack) val {
	if h.split && s.basicSplit {
		return s.playOut(h, x, s.nairnPlay(h))
	}
	if h.split && s.cdzSplit {
		return s.playOut(h, x, s.cdzChoice(h))
	}
	if h.split && x.get(int(h.pair)) != 1 && !s.cdpSplit {
		return s.playOut(h, x, s.splitChoice(h))
	}
	v, c := s.bestCD(h, x)
	switch {
	case h.split:
		s.recordChoice(h, c)
	case s.pol == polCD:
		*memoSlotOf(&s.cdPlay, h.id, len(s.nodes)) = c
	}
	return v
}

// bestCD returns the best play at hand h, played on by the current policy,
// and its value. Ties go to standing, not declaring, not doubling.
func (s *solver) bestCD(h hand, x pack) (val, play) {
	if s.mustDeclare(h) { // AR-11
		v11, v1 := s.node(s.declared(h, 11), x), s.node(s.declared(h, 1), x)
		if v1[sEV] > v11[sEV] {
			return v1, playDeclare1
		}
		return v11, playDeclare11
	}
	if s.tenAceChoice(h) { // VE-13: 21, or count the Ace 1 and play 11
		st, d := s.stand(h, x, 1), s.node(s.declared(h, 1), x)
		if d[sEV] > st[sEV] {
			return d, playDeclare1
		}
		return st, playStand
	}
	// A hand of 21 ends without asking; a split Ace with its card is done.
	if h.c.Total() == 21 || (s.oneCard(h) && h.c.N >= 2) {
		return s.stand(h, x, 1), playStand
	}
	v, c := s.hit(h, x), playHit
	if s.standWorthy(h) {
		if st := s.stand(h, x, 1); st[sEV] >= v[sEV] {
			v, c = st, playStand
		}
	}
	if s.canDouble(h) {
		if d := s.double(h, x); d[sEV] > v[sEV] {
			v, c = d, playDouble
		}
	}
	return v, c
}

// playOut values play c at hand h.
func (s *solver) playOut(h hand, x pack, c play) val {
	switch c {
	case playStand:
		return s.stand(h, x, 1)
	case playDouble:
		return s.double(h, x)
	case playDeclare1:
		return s.node(s.declared(h, 1), x)
	case playDeclare11:
		return s.node(s.declared(h, 11), x)
	}
	return s.hit(h, x)
}

// splitChoice is the play of split hand h: the best play for its cards
// where it was made with one other pair card removed — the first split
// hand's optimum (Farmer's "CDP1") — whatever the number of pair cards
// removed where it is met. A post-split strategy fixed by the hand's own
// cards is what makes the split's value exact with resplits (splitValue).
func (s *solver) splitChoice(h hand) play {
	if s.basicSplit {
		return s.nairnPlay(h)
	}
	if s.cdzSplit {
		return s.cdzChoice(h)
	}
	h = s.number(h)
	if t := s.choice[s.pol][h.pair]; int(h.id) < len(t) && t[h.id] != 0 {
		return t[h.id]
	}
	_, c := s.bestCD(h, pack(0).add(int(h.pair)))
	s.recordChoice(h, c)
	return c
}

// cdzChoice is the play of split hand h under Farmer's CDZ-: the option the
// unsplit hand of the same cards would take — the best of those the split
// hand has, valued as the unsplit hand's, from the shoe less its own cards
// and the up card only (no other pair card out), with composition-dependent
// play after it — ties to standing, not doubling (his computeEVx). It
// depends on the hand's own cards only, so the split's value is exact for
// it (splitValue). A declaration (AR-11) is chosen the same way, each
// declaration by its best option; a split ten's Ace (VE-13) as in CDP1
// (counting it 1 is never better: tested).
func (s *solver) cdzChoice(h hand) play {
	h = s.number(h)
	if t := s.choice[s.pol][h.pair]; int(h.id) < len(t) && t[h.id] != 0 {
		return t[h.id]
	}
	var c play
	switch {
	case h.c.Total() == 21 || (s.oneCard(h) && h.c.N >= 2):
		c = playStand
	case s.tenAceChoice(h):
		_, c = s.bestCD(h, pack(0).add(int(h.pair)))
	case s.mustDeclare(h):
		v11, _ := s.cdzBest(s.declared(h, 11))
		v1, _ := s.cdzBest(s.declared(h, 1))
		c = playDeclare11
		if v1 > v11 {
			c = playDeclare1
		}
	default:
		_, c = s.cdzBest(h)
	}
	s.recordChoice(h, c)
	return c
}

// cdzBest is the best of the options open to split hand h (not declaring)
// by the values of the unsplit hand of its cards, and that value.
func (s *solver) cdzBest(h hand) (float64, play) {
	u := h
	u.split, u.pair = false, -1
	if u.c.Total() == 21 {
		return s.stand(u, 0, 1)[sEV], playStand
	}
	v, c := s.hit(u, 0)[sEV], playHit
	if s.standWorthy(h) {
		if st := s.stand(u, 0, 1)[sEV]; st >= v {
			v, c = st, playStand
		}
	}
	if s.canDouble(h) {
		if d := s.double(u, 0)[sEV]; d > v {
			v, c = d, playDouble
		}
	}
	return v, c
}

func (s *solver) recordChoice(h hand, c play) {
	h = s.number(h)
	t := &s.choice[s.pol][h.pair]
	if int(h.id) >= len(*t) {
		*t = grow(*t, len(s.nodes))
	}
	(*t)[h.id] = c
}

// parts computes the values of a split hand of pair P with k other pair
// cards removed: the hand started from P, drawing from D_{k−1}.
func (s *solver) parts(P, k int) (nonPair, pair, any val) {
	x := pack(0).addN(P, k)
	start := hand{comp: pack(0).add(P), c: rules.Count{}.Add(kindCard[P]), split: true, pair: int8(P)}
	sh := s.shoe(start.comp + x)
	n := sh.Total()
	for r := 0; r < kinds; r++ {
		if sh[r] == 0 {
			continue
		}
		p := float64(sh[r]) / float64(n)
		v := s.node(s.draw(start, r), x)
		if r == P {
			pair = v
			any.addScaled(&v, p)
			continue
		}
		nonPair.addScaled(&v, p)
		any.addScaled(&v, p)
	}
	return nonPair, pair, any
}

// splitValue is the W-space value of splitting a pair of kind P, exact for
// the post-split strategy the policy plays (splitChoice, or the table),
// every new pair resplit while the rules allow (the CD policy may keep one
// where that is better).
//
// Method (see docs/analysis.md). The dealing order does not change the
// joint law of the cards each hand and the dealer receive, because each
// hand's play depends on its own cards only: deal first every split hand's
// second card (a pair card there makes a new hand while the rules allow),
// then each hand's further cards, then the dealer's. A hand's value is then
// that of the hand played from the shoe less all those second-round cards;
// the other hands' further cards drop out (the value of a fixed strategy
// from a shoe is, averaged over one random card removed, the value from the
// shoe: a martingale, and optional stopping applies). The second-round
// cards are pair cards (a of them) and non-pair cards (b), and once the
// box holds all the hands it may, cards of either kind; a random non-pair
// card removed is, by the same identity, a combination of no card and a
// pair card removed:
//
//	f(R) = q·f(R−P) + (1−q)·E[f(R−non-pair)],  q = P(a pair card from R),
//
// so every value reduces to values from D_j, j pair cards removed, for
// j ≤ 2·hands−4 (as in Farmer's analyzer, whose closed-form counting of
// orders holds up to 4 hands; the chain below counts them for any number). With one split it is the hand from D_0
// with any second card, twice.
func (s *solver) splitValue(P int) val {
	// The hands the box may reach: a pair made again is split again while
	// the rules allow it.
	maxHands := 2
	for maxHands < s.base[P] && s.maySplit(P, maxHands) {
		maxHands++
	}
	D := s.base
	D[P] -= 2
	p, n := D[P], D.Total()
	s.splitK[P] = min(2*maxHands-3, ctxPerPair-1)

	// Hand values from D_j, by j, computed when first needed.
	type partsJ struct {
		done               bool
		nonPair, pair, any val
	}
	pj := make([]partsJ, 2*maxHands)
	// The split hands with k ≥ 2 other pair cards removed are valued for
	// every k at once (partsK).
	var kNonPair, kPair, kAny [kLanes]val
	kDone := false
	parts := func(k int) (nonPair, pair, any val) {
		if k < 2 || s.cdpSplit {
			// CDP plays each shoe's optimum: no lanes sharing one play.
			return s.parts(P, k)
		}
		if !kDone {
			kDone = true
			kNonPair, kPair, kAny = s.partsK(P)
		}
		return kNonPair[k-2], kPair[k-2], kAny[k-2]
	}
	at := func(j int) *partsJ {
		e := &pj[j]
		if !e.done {
			e.done = true
			// nonPair and any from D_j: the hand started from P with j+1
			// other pair cards removed; pair from D_j: the hand P,P with j
			// others removed, its own second P among the j.
			e.nonPair, _, e.any = parts(j + 1)
			if j >= 1 {
				_, e.pair, _ = parts(j)
			}
		}
		return e
	}
	const (
		fNonPair = iota
		fPair
		fAny
	)
	// The memos' tables: a chain's state (h, w, a, b) has w = 2h−2−a−b
	// (each resplit adds a hand and a waiting one and deals a pair card,
	// each other second card ends a wait), so a+b ≤ 2·maxHands−2, and
	// reduced's a+m ≤ that too; each index below A.
	A := 2*maxHands - 1
	sm := &s.sm
	sm.start(3*A*A, (maxHands+1)*A*A*4)
	// reduced is E[f(D_a less m random non-pair cards)].
	var reduced func(f, a, m int) val
	reduced = func(f, a, m int) val {
		if m == 0 {
			e := at(a)
			switch f {
			case fNonPair:
				return e.nonPair
			case fPair:
				return e.pair
			}
			return e.any
		}
		if p-a <= 0 {
			return reduced(f, a, m-1) // no pair card left: q = 0
		}
		k := (f*A+a)*A + m
		if sm.rg[k] == sm.gen {
			return sm.r[k]
		}
		q := float64(p-a) / float64(n-a-(m-1))
		v := reduced(f, a, m-1)
		w := reduced(f, a+1, m-1)
		v.addScaled(&w, -q)
		v = v.scaled(1 / (1 - q))
		sm.r[k], sm.rg[k] = v, sm.gen
		return v
	}
	// The second round as a chain over h hands made, w waiting for their
	// second card, a pair cards and b non-pair cards dealt, first the kind
	// of the first hand's second card (the box's original stake is on it).
	const (
		firstOpen = iota
		firstNonPair
		firstPair
		firstAny
	)
	// end is the value of the round's hands once the second round is over,
	// u hands (w at the time) taking any card after the box reached its
	// last hand.
	end := func(h, a, b, u, first int) val {
		var tot, v1 val
		if b > 0 {
			// A non-pair hand: its own card is one of the b.
			q := float64(p-a) / float64(n-a-(b-1))
			np := reduced(fNonPair, a, b-1).scaled(1 / (1 - q))
			tot.addScaled(&np, float64(b))
			if first == firstNonPair {
				v1 = np
			}
		}
		if kept := a - (h - 2); kept > 0 {
			pp := reduced(fPair, a, b)
			tot.addScaled(&pp, float64(kept))
			if first == firstPair {
				v1 = pp
			}
		}
		if u > 0 {
			x := reduced(fAny, a, b)
			tot.addScaled(&x, float64(u))
			if first == firstAny || first == firstOpen {
				v1 = x
			}
		}
		// dealer_blackjack_takes=original: a dealer blackjack takes the box's
		// original stake only, on the first hand; each split hand was
		// charged half of it (stand).
		tot[sEV] += 0.5*tot[sBJLoss] - v1[sBJLoss]
		return tot
	}
	var chain func(h, w, a, b, first int) val
	next := func(h, w, a, b, first, kind int) val {
		if first == firstOpen {
			first = kind
		}
		if w == 0 {
			return end(h, a, b, 0, first)
		}
		return chain(h, w, a, b, first)
	}
	chain = func(h, w, a, b, first int) val {
		if !s.maySplit(P, h) || h >= maxHands {
			return end(h, a, b, w, first)
		}
		k := ((h*A+a)*A+b)*4 + first
		if sm.cg[k] == sm.gen {
			return sm.c[k]
		}
		q := float64(p-a) / float64(n-a-b)
		v := next(h, w-1, a, b+1, first, firstNonPair).scaled(1 - q)
		if q > 0 {
			re := chain(h+1, w+1, a+1, b, first)
			if s.pol == polCD && !s.alwaysResplit {
				// The optimum may keep a new pair rather than resplit it.
				if keep := next(h, w-1, a+1, b, first, firstPair); keep[sEV] > re[sEV] {
					re = keep
				}
			}
			v.addScaled(&re, q)
		}
		sm.c[k], sm.cg[k] = v, sm.gen
		return v
	}
	// VE-12 read by the letter (resplit_hands=first): only the first
	// hand's second card, the first card dealt after the split, makes a
	// new hand. Those cards come before any other (the first hand's card
	// is dealt, and dealt again after each resplit, until it is not a pair
	// or the box holds all its hands), so the same reordering holds: with
	// h hands made from h−2 pair cards, the first hand's card is a
	// non-pair (one of b = 1) and the h−1 others take any card, or it is a
	// pair and splits again (or, under CD, is kept); at the box's last
	// hand all h take any card.
	var firstOnly func(h int) val
	firstOnly = func(h int) val {
		a := h - 2
		if !s.maySplit(P, h) || h >= maxHands {
			return end(h, a, 0, h, firstAny)
		}
		q := float64(p-a) / float64(n-a)
		v := end(h, a, 1, h-1, firstNonPair).scaled(1 - q)
		if q > 0 {
			re := firstOnly(h + 1)
			if s.pol == polCD && !s.alwaysResplit {
				if keep := end(h, a+1, 0, h-1, firstPair); keep[sEV] > re[sEV] {
					re = keep
				}
			}
			v.addScaled(&re, q)
		}
		return v
	}
	var v val
	if s.p.ResplitHands == rules.ResplitFirst {
		v = firstOnly(2)
	} else {
		v = chain(2, 2, 0, 0, firstOpen)
	}
	sm.busy = false
	// AR-10 on the second split Ace; under challenge_after_first
	// only where the first Ace's challenge is taken (worth it).
	if s.p.ChallengeSplitAce && P == aceIdx && (!s.p.ChallengeAfterFirst || s.challengeEV(pack(0).addN(aceIdx, 1)) > 0) {
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
	lgamma := s.lgamma
	lw := lgamma[n+1]
	for k := 0; k < kinds; k++ {
		m := c.get(k)
		if m == 0 {
			continue
		}
		if m > s.base[k] {
			return 0
		}
		lw += lgamma[s.base[k]+1] - lgamma[s.base[k]-m+1] - lgamma[m+1]
	}
	lw -= lgamma[N+1] - lgamma[N-n+1]
	return math.Exp(lw)
}

// lgammas returns t with log Γ(i) for i = 0 … n (math.Lgamma, so that
// weightOf reads the very numbers it would compute), extending it if
// shorter.
func lgammas(t []float64, n int) []float64 {
	for i := len(t); i <= n; i++ {
		v, _ := math.Lgamma(float64(i))
		t = append(t, v)
	}
	return t
}

// slab stores values in fixed chunks, so that growing it copies nothing and
// a pointer into it stays valid.
type slab[T any] struct {
	chunks [][]T
	n      int32
}

const slabChunk = 4096

// alloc returns a new element, zero.
func (s *slab[T]) alloc() (int32, *T) {
	if int(s.n)%slabChunk == 0 && int(s.n)/slabChunk == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, slabChunk))
	}
	i := s.n
	s.n++
	p := &s.chunks[i/slabChunk][i%slabChunk]
	var zero T
	*p = zero
	return i, p
}

// allocRun returns n new consecutive elements (n ≤ slabChunk), not zeroed.
func (s *slab[T]) allocRun(n int) (int32, []T) {
	if r := int(s.n) % slabChunk; r+n > slabChunk {
		s.n += int32(slabChunk - r)
	}
	if int(s.n)/slabChunk == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, slabChunk))
	}
	i := s.n
	s.n += int32(n)
	return i, s.run(i, n)
}

// run is the n elements from i, allocated by allocRun.
func (s *slab[T]) run(i int32, n int) []T {
	o := int(i % slabChunk)
	return s.chunks[i/slabChunk][o : o+n]
}

// reuse returns the slab empty, keeping its chunks.
func (s slab[T]) reuse() slab[T] {
	s.n = 0
	return s
}

func (s *slab[T]) at(i int32) *T {
	u := uint32(i) // unsigned: the division is a shift
	return &s.chunks[u/slabChunk][u%slabChunk]
}
