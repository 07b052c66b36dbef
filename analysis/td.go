package analysis

// Kinds of strategy rows.
const (
	rowHard = iota
	rowSoft
)

// tdColumn is one dealer up card's column of a total-dependent basic
// strategy: hit or stand by hard or soft total for hands of three or more
// cards, a code by total for two-card hands, and for each pair whether to
// split.
type tdColumn struct {
	hs     [2][22]Action
	two    [2][22]Code
	pair   [kinds]Code // Split, Rp, or the two-card row's code
	tenAce Code        // VE-13: Stand counts 21; else the declared-1 play
}

func rowOf(h hand) (int, int) {
	if h.c.Soft() {
		return rowSoft, h.c.Total()
	}
	return rowHard, h.c.Total()
}

// rootCode is the table's code for an initial hand.
func (t *tdColumn) rootCode(s *solver, h0 hand) Code {
	if h0.c.N == 2 && h0.comp.get(kindFirst(h0.comp)) == 2 {
		if c := t.pair[kindFirst(h0.comp)]; c.Act != 0 {
			return c
		}
	}
	k, tot := rowOf(h0)
	return t.two[k][tot]
}

func kindFirst(p pack) int {
	for k := 0; k < kinds; k++ {
		if p.get(k) > 0 {
			return k
		}
	}
	return -1
}

// nodeTD plays hand h by the table.
func (s *solver) nodeTD(h hand, x pack) val {
	h, c := s.tdPlay(h)
	if c == playBest {
		return s.nodeCD(h, x)
	}
	return s.playOut(h, x, c)
}

// tdPlay is the table's play at hand h: stand, hit or double at the hand
// it returns (h, or h with its Ace declared), or playBest where the table
// has no row for it (then nodeCD plays it). It depends on the hand's cards
// only.
func (s *solver) tdPlay(h hand) (hand, play) {
	if s.tenAceChoice(h) { // VE-13: the card's ten-ace row
		if s.td.tenAce.Declare == 1 {
			return s.apply(h.declare(1), s.td.tenAce)
		}
		return h, playStand
	}
	if !s.mustDeclare(h) && (h.c.Total() == 21 || (s.oneCard(h) && h.c.N >= 2)) {
		return h, playStand
	}
	k, tot := rowOf(h)
	if h.c.N == 2 {
		c := s.td.two[k][tot]
		if c.Act == 0 { // a class no initial hand has: play it best
			return h, playBest
		}
		if s.mustDeclare(h) {
			d := c.Declare
			if d == 0 {
				d = 11
			}
			h = h.declare(int(d))
			if h.c.Total() == 21 {
				return h, playStand
			}
		}
		return s.apply(h, c)
	}
	a := s.td.hs[k][tot]
	switch {
	case a == 0:
		return h, playBest
	case a == Stand && s.canStand(h):
		return h, playStand
	}
	return h, playHit
}

// agrees reports whether the table plays hand h (numbered) and every hand
// its play can lead to as the CD pass did: the same play, none of them a
// declaration or a hand without a row. Then the TD value of h in any
// context is the CD pass's, bit for bit: the same functions (hit, stand,
// double; hitK, standK, doubleK) over the same values in the same order.
// (Within a round of buildTD a row is decided before any hand that can
// reach it is valued, so a TD value in the memo is the table's as it
// stands; the answers are forgotten with the memo when rows change.)
// A split hand's CD play is its post-split play (splitChoice), the same
// in every context, so one answer serves every count of pair cards.
func (s *solver) agrees(h hand) bool {
	i, cd := 0, play(0)
	if h.split {
		i = 1 + int(h.pair)
		if t := s.choice[polCD][h.pair]; int(h.id) < len(t) {
			cd = t[h.id]
		}
	} else if int(h.id) < len(s.cdPlay) {
		cd = s.cdPlay[h.id]
	}
	slot := memoSlotOf(&s.agree[i], h.id, len(s.nodes))
	if *slot != 0 {
		return *slot == 1
	}
	ok := cd != 0 && !s.mustDeclare(h) && !s.tenAceChoice(h)
	if ok {
		_, td := s.tdPlay(h)
		ok = td == cd
	}
	if ok && cd == playHit {
		sh := s.shoe(h.comp)
		for r := 0; r < kinds && ok; r++ {
			if sh[r] <= 0 {
				continue
			}
			if c := s.next(h.id, r); c != bustNode {
				ok = s.agrees(s.handAt(h, c))
			}
		}
	}
	a := uint8(2)
	if ok {
		a = 1
	}
	*memoSlotOf(&s.agree[i], h.id, len(s.nodes)) = a
	return ok
}

// apply is the play of a code on a two-card split hand (where surrender
// and split are not open), falling back as the code says.
func (s *solver) apply(h hand, c Code) (hand, play) {
	for {
		switch c.Act {
		case Stand:
			if s.canStand(h) {
				return h, playStand
			}
			return h, playHit
		case Hit:
			return h, playHit
		case Double:
			if s.canDouble(h) {
				return h, playDouble
			}
		}
		if c.Else == 0 || c.Else == Split || c.Else == Surrender {
			k, tot := rowOf(h)
			if a := s.td.hs[k][tot]; a != 0 {
				c = Code{Act: a}
				continue
			}
			return h, playBest
		}
		c = Code{Act: c.Else}
	}
}

// hsOrder is the order in which hit/stand rows are decided: every total a
// hit can reach is decided before the total it comes from.
var hsOrder = func() [][2]int {
	var o [][2]int
	for t := 20; t >= 11; t-- {
		o = append(o, [2]int{rowHard, t})
	}
	for t := 20; t >= 12; t-- {
		o = append(o, [2]int{rowSoft, t})
	}
	for t := 10; t >= 2; t-- {
		o = append(o, [2]int{rowHard, t})
	}
	return o
}()

// tdItem is a hand of three or more cards that a row of the table
// decides (see buildTD), with its weight and, once valued, the
// expectations of standing and of hitting: hitting played by the table as
// its memo holds it, which changes only when the memo is cleared.
type tdItem struct {
	h      hand
	w      float64
	st, ht float64
	valued bool
}

// tdClassed reports whether hand h, met by the CD pass, is an item of the
// table's hit-or-stand rows.
func (s *solver) tdClassed(h hand) bool {
	return h.c.N >= 3 && !s.mustDeclare(h) && h.c.Total() < 21
}

// buildTD derives the total-dependent strategy for this up card from the
// hands the CD pass met, then values every initial hand under it.
//
// Hit or stand for a total of three or more cards is the action with the
// better sum over the hands of three or more cards of that total, each
// weighted by the probability that the table's own play reaches it from
// the start of the round (a hand split off is not counted), valued with the
// table's own play after the hit: the change of the round's expectation
// when the cell changes. The weights depend on the table, so the rows are
// chosen again until they no longer change (the first choice weights each
// hand by the probability of its cards). Two-card rows choose, the same
// way over the initial hands of that total, among stand, hit, a double and
// a surrender (with the row's better two-card hit or stand as fallback)
// and, for a hand that must declare an Ace (AR-11), the declaration. A pair
// is split when splitting (played by the table, resplitting) beats its
// two-card row.
func (s *solver) buildTD() []rootHand {
	s.pol = polTD
	s.td = &tdColumn{}
	type item = tdItem
	// The classes' items, in the order the CD pass met the hands (the
	// order of every sum below), in one slice kept for the next up card.
	var classes [2][22][]item
	var n [2][22]int
	for _, h := range s.seen {
		if s.tdClassed(h) {
			k, t := rowOf(h)
			n[k][t]++
		}
	}
	total := 0
	for k := range n {
		for _, c := range n[k] {
			total += c
		}
	}
	if cap(s.tdItems) < total {
		s.tdItems = make([]item, total)
	}
	all := s.tdItems[:total]
	off := 0
	for k := range n {
		for t, c := range n[k] {
			classes[k][t] = all[off : off : off+c]
			off += c
		}
	}
	for _, h := range s.seen {
		if s.tdClassed(h) {
			k, t := rowOf(h)
			classes[k][t] = append(classes[k][t], item{h: h, w: s.weightOf(h.comp)})
		}
	}
	// choose is the better play for the items of one class under their
	// weights, valued with the table as it stands.
	choose := func(items []item) Action {
		var sumS, sumH float64
		for i := range items {
			it := &items[i]
			if !s.standWorthy(it.h) {
				return Hit
			}
			if it.w == 0 {
				continue
			}
			if !it.valued {
				st, ht := s.stand(it.h, 0, 1), s.hit(it.h, 0)
				it.st, it.ht, it.valued = st[sEV], ht[sEV], true
			}
			sumS += it.w * it.st
			sumH += it.w * it.ht
		}
		if sumS >= sumH {
			return Stand
		}
		return Hit
	}
	const rounds = 4
	for round := 0; ; round++ {
		for _, kt := range hsOrder {
			if items := classes[kt[0]][kt[1]]; len(items) > 0 {
				s.td.hs[kt[0]][kt[1]] = choose(items)
			}
		}
		s.twoCardRows()
		if round == rounds-1 {
			break
		}
		reach := s.reach()
		changed := false
		for k := range classes {
			for t, items := range classes[k] {
				sum := 0.0
				for _, it := range items {
					sum += reach[it.h.id]
				}
				if sum == 0 {
					continue // no hand of the class is played: keep its choice
				}
				for i := range items {
					items[i].w = reach[items[i].h.id]
				}
				if choose(items) != s.td.hs[k][t] {
					changed = true
				}
			}
		}
		if !changed {
			break
		}
		// Values played by the old table are stale.
		for i := range all {
			all[i].valued = false
		}
		for i := range s.memo[polTD] {
			clear(s.memo[polTD][i])
		}
		for i := range s.choice[polTD] {
			clear(s.choice[polTD][i])
		}
		for i := range s.agree {
			clear(s.agree[i])
		}
		for i := range s.kmemo[polTD] {
			clear(s.kmemo[polTD][i])
		}
	}

	// VE-13, decided with one other pair card removed, before any split is
	// valued.
	if s.p.SplitTenAceChoice {
		h := hand{split: true, pair: tenIdx}.with(tenIdx).with(aceIdx)
		x := pack(0).add(tenIdx)
		st := s.stand(h, x, 1)
		d := s.node(h.declare(1), x)
		s.td.tenAce = Code{Act: Stand}
		if d[sEV] > st[sEV] {
			k, t := rowOf(h.declare(1))
			s.td.tenAce = s.td.two[k][t]
			s.td.tenAce.Declare = 1
		}
	}

	// Pairs: split (playing the split hands by the table) or the row's play.
	for P := 0; P < kinds; P++ {
		h0 := hand{pair: -1}.with(P).with(P)
		k, t := rowOf(h0)
		row := s.td.two[k][t]
		s.td.pair[P] = row
		if !s.maySplit(P, 1) || s.weightOf(h0.comp) == 0 {
			continue
		}
		pbj := s.pBJ(h0.comp)
		cs := s.handCands(h0, pbj)
		rowV := cs[s.pick(cs, row)].v[sEV]
		splitV := s.total(s.splitValue(P), pbj)[sEV]
		if splitV > rowV {
			s.td.pair[P] = Code{Act: Split}
		} else if row.Act == Surrender {
			// Rp: surrender, or split where surrender is not open.
			alt := row
			alt.Act = row.Else
			if altV := cs[s.pick(cs, Code{Act: row.Else, Declare: row.Declare})].v[sEV]; splitV > altV {
				_ = alt
				s.td.pair[P] = Code{Act: Surrender, Else: Split}
			}
		}
	}
	var roots []rootHand
	for x := 0; x < kinds; x++ {
		for y := x; y < kinds; y++ {
			roots = append(roots, s.root(x, y))
		}
	}
	return roots
}

// twoCardRows chooses the table's two-card rows (see buildTD).
func (s *solver) twoCardRows() {
	type acc struct {
		code Code
		sum  float64
	}
	rows := map[[2]int][]acc{}
	for x := 0; x < kinds; x++ {
		for y := x; y < kinds; y++ {
			h0 := hand{pair: -1}.with(x).with(y)
			w := s.weightOf(h0.comp)
			if w == 0 || h0.c.TwoCard21() {
				continue
			}
			k, t := rowOf(h0)
			key := [2]int{k, t}
			for _, c := range s.handCands(h0, s.pBJ(h0.comp)) {
				code := c.code
				found := false
				for i := range rows[key] {
					if rows[key][i].code == code {
						rows[key][i].sum += w * c.v[sEV]
						found = true
					}
				}
				if !found {
					rows[key] = append(rows[key], acc{code, w * c.v[sEV]})
				}
			}
		}
	}
	for key, as := range rows {
		best := 0
		for i := range as {
			if as[i].sum > as[best].sum {
				best = i
			}
		}
		code := as[best].code
		if code.Act == Double || code.Act == Surrender {
			// Where the double or the surrender is not open (after a split,
			// or a double_on that does not allow it), a two-card hand of
			// the row hits or stands as the row's hands do best together;
			// a hand that must declare (AR-11) declares as for that play.
			fb := -1
			for i, a := range as {
				if (a.code.Act == Stand || a.code.Act == Hit) && (code.Act == Surrender || a.code.Declare == code.Declare) &&
					(fb < 0 || a.sum > as[fb].sum) {
					fb = i
				}
			}
			code.Else = Hit
			if fb >= 0 {
				code.Else = as[fb].code.Act
				if code.Act == Surrender {
					code.Declare = as[fb].code.Declare
				}
			}
		}
		s.td.two[key[0]][key[1]] = code
	}

}

// reach returns, for every unsplit hand of three or more cards that the
// table's play reaches with a decision to make, the probability of reaching
// it, by hand number (0 for the others). It goes one card at a time, each
// level's hands in the order they were first reached, so that every sum
// is made in the same order at every run.
func (s *solver) reach() []float64 {
	s.reachW = grow(reuse(s.reachW), len(s.nodes))
	s.level = s.level[:0]
	// spread adds the hands one card from h (weight w) to the next level.
	spread := func(h hand, w float64) {
		sh := s.shoe(h.comp)
		n := float64(sh.Total())
		for k := 0; k < kinds; k++ {
			if sh[k] == 0 {
				continue
			}
			c := s.next(h.id, k)
			if c == bustNode {
				continue
			}
			if int(c) >= len(s.levelW) {
				s.levelW = grow(s.levelW, len(s.nodes))
			}
			if s.levelW[c] == 0 {
				s.nextLvl = append(s.nextLvl, c)
			}
			s.levelW[c] += w * float64(sh[k]) / n
		}
	}
	s.nextLvl = s.nextLvl[:0]
	for x := 0; x < kinds; x++ {
		for y := x; y < kinds; y++ {
			h := s.number(hand{pair: -1}.with(x).with(y))
			w := s.weightOf(h.comp)
			if w == 0 || h.c.TwoCard21() {
				continue
			}
			code := s.td.rootCode(s, h)
			if x == y && code.Act == 0 && s.cdSplits[x] {
				continue // pairs are decided last: as the CD play splits
			}
			if code.Act == Split || code.Act == Surrender {
				continue // a surrender is always open at the start of a round
			}
			if s.mustDeclare(h) { // AR-11
				d := code.Declare
				if d == 0 {
					d = 11
				}
				if h = s.declared(h, int(d)); h.c.Total() == 21 {
					continue
				}
			}
			act := code.Act
			if act == Double {
				if s.canDouble(h) {
					continue
				}
				act = code.Else
			}
			if act == Stand && s.canStand(h) {
				continue
			}
			spread(h, w)
		}
	}
	for len(s.nextLvl) > 0 {
		s.level, s.nextLvl = s.nextLvl, s.level[:0]
		for _, id := range s.level {
			w := s.levelW[id]
			s.levelW[id] = 0
			if int(id) >= len(s.reachW) {
				s.reachW = grow(s.reachW, len(s.nodes))
			}
			s.reachW[id] = w
			h := s.handAt(hand{pair: -1}, id)
			if h.c.Total() >= 21 {
				continue
			}
			k, t := rowOf(h)
			if a := s.td.hs[k][t]; a == 0 || a == Stand && s.canStand(h) {
				continue
			}
			spread(h, w)
		}
	}
	return s.reachW
}
