package analysis

// Split hands for every count of other pair cards at once.
//
// A split hand of pair P with k ≥ 2 other pair cards removed plays its
// post-split strategy, fixed by its own cards (splitChoice), whatever k is:
// for k = 2 … splitK[P] it plays the same cards the same way and only the
// shoe (one pair card less for each k more) and the dealer's distributions
// differ. So these hands are played in one recursion carrying a value per
// k, a lane: lane j is k = j+2. Each lane's value is computed with the
// operations, in the order, that the recursion for its k alone would use
// (node, hit, double, stand), so the figures are the same to the last bit;
// the recursion, the hand table's look-ups and the memo are shared.
//
// A hand has the lanes whose k leaves it a shoe it can be dealt from: k ≤
// base[P] − (pair cards in the hand), so drawing a pair card keeps a
// prefix of the lanes.

// kLanes bounds the lanes: k = 2 … ctxPerPair−1.
const kLanes = ctxPerPair - 2

// lanesK is the number of lanes of split hand h.
func (s *solver) lanesK(h hand) int {
	P := int(h.pair)
	return max(0, min(s.splitK[P], s.base[P]-h.comp.get(P))-1)
}

// xK is the removal of lane j: j+2 other pair cards of kind P.
func xK(P, j int) pack { return pack(0).addN(P, j+2) }

// nodeK is the value of split hand h (not bust) in each of its lanes,
// played by the current policy with k ≥ 2 other pair cards removed: the
// memo's run of values, lane j at index j. Both policies play such a hand
// by its cards alone: the CD policy by splitChoice, the TD policy by the
// table (tdPlay) or, where it has no row, by splitChoice.
func (s *solver) nodeK(h hand) []val {
	h = s.number(h)
	n := s.lanesK(h)
	if n == 0 {
		return nil
	}
	P := int(h.pair)
	memo := &s.kmemo[s.pol][P]
	if t := *memo; int(h.id) < len(t) && t[h.id] != 0 {
		return s.vals.run(t[h.id]-1, n)
	}
	id := h.id
	if s.pol == polTD && s.agrees(h) {
		// The table plays as the CD pass here and after: the same values
		// (see agrees).
		if t := s.kmemo[polCD][P]; int(id) < len(t) && t[id] != 0 {
			*s.memoSlot(memo, id) = t[id]
			return s.vals.run(t[id]-1, n)
		}
	}
	var c play
	if s.pol == polCD {
		c = s.splitChoice(h)
	} else if h, c = s.tdPlay(h); c == playBest {
		c = s.splitChoice(h)
	}
	var out [kLanes]val
	switch c {
	case playStand:
		s.standK(h, 1, &out, n)
	case playDouble:
		s.doubleK(h, &out, n)
	case playDeclare1:
		copy(out[:], s.nodeK(s.declared(h, 1)))
	case playDeclare11:
		copy(out[:], s.nodeK(s.declared(h, 11)))
	default:
		s.hitK(h, &out, n)
	}
	i, run := s.vals.allocRun(n)
	copy(run, out[:n])
	*s.memoSlot(memo, id) = i + 1
	return run
}

// standK settles split hand h (stake units on it) in its first n lanes.
func (s *solver) standK(h hand, stake float64, out *[kLanes]val, n int) {
	P := int(h.pair)
	if h.id == bustNode || h.c.Bust() {
		for j := range n {
			out[j] = s.bust(h.comp+xK(P, j), stake)
		}
		return
	}
	r := s.pay.row(h.c, h.split, h.split && h.pair == aceIdx, stake)
	for j, d := range s.dealersK(h)[:n] {
		out[j] = s.settle(r, s.dists.at(d), stake)
	}
}

// dealersK is the index in dists of the dealer's distribution against
// split hand h (not bust) in each of its lanes, computed together (they
// share their batches of dist4) and remembered by hand number.
func (s *solver) dealersK(h hand) []int32 {
	h = s.number(h)
	n := s.lanesK(h)
	P := int(h.pair)
	if t := s.kdmemo[P]; int(h.id) < len(t) && t[h.id] != 0 {
		i := t[h.id] - 1
		return s.kdists[i : int(i)+n]
	}
	i := len(s.kdists)
	for j := range n {
		s.kdists = append(s.kdists, s.batchAdd(h.comp+xK(P, j)))
	}
	s.batchFlush()
	*s.memoSlot(&s.kdmemo[P], h.id) = int32(i) + 1
	return s.kdists[i : i+n]
}

// lanesDrawing is the number of the first n lanes of split hand h whose
// shoe holds a card of kind r, sh being lane 0's shoe.
func lanesDrawing(sh *Counts, r, P, n int) int {
	if r == P {
		return min(n, sh[P])
	}
	if sh[r] == 0 {
		return 0
	}
	return n
}

// hitK is hit in the first n lanes of split hand h (as hit: the new hands
// followed by number, a bust weighed in each lane's shoe).
func (s *solver) hitK(h hand, out *[kLanes]val, n int) {
	h = s.number(h)
	P := int(h.pair)
	sh := s.shoe(h.comp + xK(P, 0))
	tot := sh.Total()
	for j := range n {
		out[j] = val{}
	}
	for r := 0; r < kinds; r++ {
		m := lanesDrawing(&sh, r, P, n)
		if m == 0 {
			continue
		}
		c := s.next(h.id, r)
		if c == bustNode {
			// Lane j's shoe less the card: sh less r and j pair cards.
			b := sh
			b[r]--
			for j := range m {
				out[j].addBust(s.weightIn(&b, tot-1-j), drawP(&sh, tot, r, P, j))
				b[P]--
			}
			continue
		}
		cv := s.nodeK(s.handAt(h, c))
		for j := range m {
			out[j].addScaled(&cv[j], drawP(&sh, tot, r, P, j))
		}
	}
}

// drawP is the probability of drawing a card of kind r in lane j of a
// split hand of pair P, sh being lane 0's shoe, of tot cards.
func drawP(sh *Counts, tot, r, P, j int) float64 {
	shr := sh[r]
	if r == P {
		shr -= j
	}
	return float64(shr) / float64(tot-j)
}

// doubleK is double in the first n lanes of split hand h.
func (s *solver) doubleK(h hand, out *[kLanes]val, n int) {
	P := int(h.pair)
	sh := s.shoe(h.comp + xK(P, 0))
	tot := sh.Total()
	for j := range n {
		out[j] = val{}
	}
	var cv [kLanes]val
	for r := 0; r < kinds; r++ {
		m := lanesDrawing(&sh, r, P, n)
		if m == 0 {
			continue
		}
		s.standK(s.draw(h, r), 2, &cv, m)
		for j := range m {
			out[j].addScaled(&cv[j], drawP(&sh, tot, r, P, j))
		}
	}
}

// partsK is parts(P, k) for every lane k = j+2.
func (s *solver) partsK(P int) (nonPair, pair, any [kLanes]val) {
	start := s.number(hand{pair: int8(P), split: true}.with(P))
	n := s.lanesK(start)
	sh := s.shoe(start.comp + xK(P, 0))
	tot := sh.Total()
	for r := 0; r < kinds; r++ {
		m := lanesDrawing(&sh, r, P, n)
		if m == 0 {
			continue
		}
		v := s.nodeK(s.draw(start, r))
		for j := range m {
			p := drawP(&sh, tot, r, P, j)
			if r == P {
				pair[j] = v[j]
				any[j].addScaled(&v[j], p)
				continue
			}
			nonPair[j].addScaled(&v[j], p)
			any[j].addScaled(&v[j], p)
		}
	}
	return nonPair, pair, any
}
