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
	if s.tenAceChoice(h) { // VE-13: the card's ten-ace row
		if s.td.tenAce.Declare == 1 {
			return s.apply(h.declare(1), x, s.td.tenAce)
		}
		return s.stand(h, x, 1)
	}
	if !s.mustDeclare(h) && (h.c.Total() == 21 || (s.oneCard(h) && h.c.N >= 2)) {
		return s.stand(h, x, 1)
	}
	k, tot := rowOf(h)
	if h.c.N == 2 {
		c := s.td.two[k][tot]
		if c.Act == 0 { // a class no initial hand has: play it best
			return s.nodeCD(h, x)
		}
		if s.mustDeclare(h) {
			d := c.Declare
			if d == 0 {
				d = 11
			}
			h = h.declare(int(d))
			if h.c.Total() == 21 {
				return s.stand(h, x, 1)
			}
		}
		return s.apply(h, x, c)
	}
	a := s.td.hs[k][tot]
	switch {
	case a == 0:
		return s.nodeCD(h, x)
	case a == Stand && s.canStand(h):
		return s.stand(h, x, 1)
	}
	return s.hit(h, x)
}

// apply plays a code on a two-card split hand (where surrender and split
// are not open), falling back as the code says.
func (s *solver) apply(h hand, x pack, c Code) val {
	for {
		switch c.Act {
		case Stand:
			if s.canStand(h) {
				return s.stand(h, x, 1)
			}
			return s.hit(h, x)
		case Hit:
			return s.hit(h, x)
		case Double:
			if s.canDouble(h) {
				return s.double(h, x)
			}
		}
		if c.Else == 0 || c.Else == Split || c.Else == Surrender {
			k, tot := rowOf(h)
			if a := s.td.hs[k][tot]; a != 0 {
				c = Code{Act: a}
				continue
			}
			return s.nodeCD(h, x)
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

// buildTD derives the total-dependent strategy for this up card from the
// hands the CD pass met, then values every initial hand under it.
//
// Hit or stand for a total is the action with the better sum over every
// hand of that total, each weighted by the probability of its cards,
// valued with the table's own play after the hit. Two-card rows choose,
// the same way over the initial hands of that total, among the row's
// hit/stand, a double and a surrender (each with that fallback) and, for a
// hand that must declare an Ace (AR-11), the declaration. A pair is split
// when splitting (played by the table, resplitting) beats its two-card row.
func (s *solver) buildTD() []rootHand {
	s.pol = polTD
	s.td = &tdColumn{}
	type item struct {
		h hand
		w float64
	}
	classes := map[[2]int][]item{}
	for _, h := range s.seen {
		if s.mustDeclare(h) || s.tenAceChoice(h) || h.c.Total() >= 21 {
			continue
		}
		k, t := rowOf(h)
		classes[[2]int{k, t}] = append(classes[[2]int{k, t}], item{h, s.weightOf(h.comp)})
	}
	for _, kt := range hsOrder {
		items := classes[kt]
		if len(items) == 0 {
			continue
		}
		var sumS, sumH float64
		canStand := true
		for _, it := range items {
			if !s.standWorthy(it.h) {
				canStand = false
				break
			}
			st := s.stand(it.h, 0, 1)
			ht := s.hit(it.h, 0)
			sumS += it.w * st[sEV]
			sumH += it.w * ht[sEV]
		}
		a := Hit
		if canStand && sumS >= sumH {
			a = Stand
		}
		s.td.hs[kt[0]][kt[1]] = a
	}

	// Two-card rows.
	type acc struct {
		code Code
		sum  float64
	}
	rows := map[[2]int][]acc{}
	var roots []rootHand
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
				switch code.Act {
				case Double, Surrender:
					hk, ht := k, t
					if code.Declare != 0 {
						hk, ht = rowOf(h0.declare(int(code.Declare)))
					}
					code.Else = s.td.hs[hk][ht]
					if code.Else == 0 {
						code.Else = Hit
					}
				}
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
		s.td.two[key[0]][key[1]] = as[best].code
	}
	// For a surrender, the fallback of a hand that must declare is the best
	// declared play's declaration.
	for k := range s.td.two {
		for t := range s.td.two[k] {
			c := &s.td.two[k][t]
			if c.Act == Surrender && s.p.DeclareInitialAce && k == rowSoft {
				best := -1.0e9
				for _, a := range rows[[2]int{k, t}] {
					if a.code.Act != Surrender && a.sum > best {
						best, c.Declare = a.sum, a.code.Declare
					}
				}
			}
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
	for x := 0; x < kinds; x++ {
		for y := x; y < kinds; y++ {
			roots = append(roots, s.root(x, y))
		}
	}
	return roots
}
