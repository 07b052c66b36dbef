package analysis

import (
	"math/bits"

	"sabot/rules"
)

// dealerGraph is the dealer's drawing rule for one up card as a DAG over the
// multisets of cards drawn so far, for the fast computation of the dealer's
// distribution from a shoe. A forward pass carries each state's probability
// to the states one card away. The cards that end the hand are not followed
// one by one: states that end the same way on the same cards (the same
// total, in effect) form a class, and a class settles all its states at once
// (see dist). It gives the same numbers as dealerModel.dist, which sums over
// the final hands instead (a test checks it).
type dealerGraph struct {
	states  []dState // in order of size
	edges   []dEdge
	held    []dHeld
	gstart  []int32 // the endings of class c: groups[gstart[c]:gstart[c+1]]
	groups  []dGroup
	masks   []uint16 // distinct sets of kinds, as bit masks
	classes int
	maxSize int        // cards drawn in the largest state
	maxHeld int        // cards of one kind held in the largest case
	heldMax [kinds]int // by kind: the most cards of it held where one more is drawn
}

// dState is a state of the dealer's hand: its edges, edges[e0:e1], the
// kinds it holds that its class settles on (the others' counts are not
// needed), held[h0:h1], its class's accumulators at acc, and the number of
// cards drawn.
type dState struct {
	e0, e1, h0, h1, acc int32
	size                uint8
}

// dEdge: drawing a card of kind r, of which the state already holds m,
// leads to state to; w = r*(maxHeld+1) + m indexes the factor n_r - m.
type dEdge struct {
	to int32
	w  int32
}

// dHeld: the state holds m cards of kind r.
type dHeld struct {
	m float64
	r int
}

// dGroup: drawing any card of the kinds in masks[mask] ends the hand in
// outcome out.
type dGroup struct {
	out  uint8
	mask uint16
}

func newDealerGraph(p *rules.Profile, up int) *dealerGraph {
	g := &dealerGraph{}
	type st struct {
		comp  pack
		count rules.Count
	}
	// A state is the cards drawn and their count, which under
	// dealer_ace=stays-one depends on their order (AR-13, DealerAdd): one
	// multiset may make several states.
	index := map[st]int32{{0, rules.Count{}.Add(kindCard[up])}: 0}
	states := []st{{0, rules.Count{}.Add(kindCard[up])}}
	maskIdx := map[uint16]uint16{}
	classIdx := map[[outcomes]uint16]uint16{}
	var classEnds [][outcomes]uint16
	type edge struct {
		to   int32
		r, m int
	}
	var edges []edge
	for i := 0; i < len(states); i++ {
		s := states[i]
		d := dState{e0: int32(len(edges)), h0: int32(len(g.held)), size: uint8(s.comp.size())}
		var ends [outcomes]uint16
		var settles uint16
		for r := 0; r < kinds; r++ {
			c := s.comp.add(r)
			n := p.DealerAdd(s.count, kindCard[r])
			if p.DealerDraws(n) {
				j, ok := index[st{c, n}]
				if !ok {
					j = int32(len(states))
					index[st{c, n}] = j
					states = append(states, st{c, n})
				}
				edges = append(edges, edge{to: j, r: r, m: s.comp.get(r)})
				g.maxHeld = max(g.maxHeld, s.comp.get(r))
				g.heldMax[r] = max(g.heldMax[r], s.comp.get(r))
				continue
			}
			ends[dealerClass(n)] |= 1 << r
			settles |= 1 << r
		}
		for r := 0; r < kinds; r++ {
			if m := s.comp.get(r); m > 0 && settles&(1<<r) != 0 {
				g.held = append(g.held, dHeld{float64(m), r})
			}
		}
		ci, ok := classIdx[ends]
		if !ok {
			ci = uint16(len(classEnds))
			classIdx[ends] = ci
			classEnds = append(classEnds, ends)
		}
		d.e1, d.h1, d.acc = int32(len(edges)), int32(len(g.held)), int32(ci)*(kinds+1)
		g.states = append(g.states, d)
		g.maxSize = max(g.maxSize, int(d.size))
	}
	for _, e := range edges {
		g.edges = append(g.edges, dEdge{to: e.to, w: int32(e.r*(g.maxHeld+1) + e.m)})
	}
	for _, ends := range classEnds {
		g.gstart = append(g.gstart, int32(len(g.groups)))
		for out, mask := range ends {
			if mask == 0 {
				continue
			}
			mi, ok := maskIdx[mask]
			if !ok {
				mi = uint16(len(g.masks))
				maskIdx[mask] = mi
				g.masks = append(g.masks, mask)
			}
			g.groups = append(g.groups, dGroup{out: uint8(out), mask: mi})
		}
	}
	g.gstart = append(g.gstart, int32(len(g.groups)))
	g.classes = len(classEnds)
	return g
}

// dist adds to out the probability of each outcome when the dealer draws
// from shoe s; scratch is reused between calls.
//
// A state of probability pr holding m_r cards of kind r ends in outcome o
// with probability pr * sum over the ending kinds r of (n_r - m_r) / (n -
// size). Summed over a class of states with the same endings, that is
// (sum of n_r over the kinds) * A - sum over the kinds of C_r, where A is
// the sum of pr/(n - size) and C_r the sum of pr*m_r/(n - size) over the
// class: so each state costs one addition per kind it holds.
func (g *dealerGraph) dist(s *Counts, out *[outcomes]float64, scratch *[]float64) {
	n := 0
	for _, c := range s {
		n += c
	}
	ns, nm, nc, nw := len(g.states), len(g.masks), g.classes, kinds*(g.maxHeld+1)
	need := ns + nm + nc*(kinds+1) + nw + g.maxSize + 1
	if cap(*scratch) < need {
		*scratch = make([]float64, need)
	}
	buf := (*scratch)[:need]
	prob, ms, acc, w, inv := buf[:ns], buf[ns:ns+nm], buf[ns+nm:ns+nm+nc*(kinds+1)], buf[ns+nm+nc*(kinds+1):][:nw], buf[need-g.maxSize-1:]
	clear(buf[:ns+nm+nc*(kinds+1)])
	for i, mask := range g.masks {
		t := 0
		for m := uint(mask); m != 0; m &= m - 1 {
			t += s[bits.TrailingZeros(m)]
		}
		ms[i] = float64(t)
	}
	// w[r*(maxHeld+1)+m] = n_r - m: the cards of kind r left when m are
	// held (the edges read no other m).
	for r, c := range s {
		for m := 0; m <= g.heldMax[r]; m++ {
			w[r*(g.maxHeld+1)+m] = float64(c - m) // exact: float64(c) - float64(m)
		}
	}
	for k := range inv {
		inv[k] = 0
		if n > k {
			inv[k] = 1 / float64(n-k)
		}
	}
	prob[0] = 1
	edges, held := g.edges, g.held
	for i, st := range g.states {
		pr := prob[i]
		if pr == 0 {
			continue
		}
		pr *= inv[st.size]
		for _, e := range edges[st.e0:st.e1] {
			prob[e.to] += pr * w[e.w]
		}
		a := acc[st.acc : st.acc+kinds+1]
		a[kinds] += pr
		for _, h := range held[st.h0:st.h1] {
			a[h.r] += pr * h.m
		}
	}
	for c := 0; c < nc; c++ {
		a := acc[c*(kinds+1) : (c+1)*(kinds+1)]
		if a[kinds] == 0 {
			continue
		}
		for _, gr := range g.groups[g.gstart[c]:g.gstart[c+1]] {
			v := ms[gr.mask] * a[kinds]
			for m := uint(g.masks[gr.mask]); m != 0; m &= m - 1 {
				v -= a[bits.TrailingZeros(m)]
			}
			out[gr.out] += v
		}
	}
}

// states4 is dist4's forward pass over the states: it carries each
// state's four probabilities to the states one card away and adds them to
// its class's accumulators. statesAVX2 (amd64) does the same with one
// vector instruction where this does four scalar ones, in the same order
// and with the same roundings (no fused multiply-add), so its numbers are
// these to the last bit (TestStatesAVX2).
func (g *dealerGraph) states4(prob, acc, w, inv []lane) {
	edges, held := g.edges, g.held
	for i, st := range g.states {
		pr := prob[i]
		if pr == (lane{}) {
			continue
		}
		prob[i] = lane{} // no edge leads back: left zero for the next call
		iv := &inv[st.size]
		pr[0] *= iv[0]
		pr[1] *= iv[1]
		pr[2] *= iv[2]
		pr[3] *= iv[3]
		for _, e := range edges[st.e0:st.e1] {
			p, f := &prob[e.to], &w[e.w]
			p[0] += pr[0] * f[0]
			p[1] += pr[1] * f[1]
			p[2] += pr[2] * f[2]
			p[3] += pr[3] * f[3]
		}
		a := acc[st.acc : st.acc+kinds+1]
		t := &a[kinds]
		t[0] += pr[0]
		t[1] += pr[1]
		t[2] += pr[2]
		t[3] += pr[3]
		for _, h := range held[st.h0:st.h1] {
			q := &a[h.r]
			q[0] += pr[0] * h.m
			q[1] += pr[1] * h.m
			q[2] += pr[2] * h.m
			q[3] += pr[3] * h.m
		}
	}
}

// classes4 is dist4's settlement: each class's accumulators make the
// probabilities of its endings, added to res by outcome. classesAVX2
// (amd64) does the same in the same order, bit for bit.
func (g *dealerGraph) classes4(acc, ms []lane, res *[outcomes]lane) {
	nc := g.classes
	// A class no lane reaches adds zeros (each of its accumulators is 0),
	// as dist skips it.
	for c := 0; c < nc; c++ {
		a := acc[c*(kinds+1) : (c+1)*(kinds+1)]
		t := a[kinds]
		if t == (lane{}) {
			continue // then every accumulator of the class is 0
		}
		a[kinds] = lane{}
		// Each kind that a state of the class holds ends it one way, so
		// the groups read (and clear) each accumulator once.
		for _, gr := range g.groups[g.gstart[c]:g.gstart[c+1]] {
			f := &ms[gr.mask]
			v := lane{f[0] * t[0], f[1] * t[1], f[2] * t[2], f[3] * t[3]}
			for m := uint(g.masks[gr.mask]); m != 0; m &= m - 1 {
				q := &a[bits.TrailingZeros(m)]
				v[0] -= q[0]
				v[1] -= q[1]
				v[2] -= q[2]
				v[3] -= q[3]
				*q = lane{}
			}
			o := &res[gr.out&(outcomes-1)]
			o[0] += v[0]
			o[1] += v[1]
			o[2] += v[2]
			o[3] += v[3]
		}
	}
}

// lanes is the number of shoes dist4 follows at once.
const lanes = 4

type lane [lanes]float64

// dist4Buf is dist4's memory for one graph: the states' probabilities and
// the classes' accumulators, which dist4 leaves zero for its next call (so
// it need not clear them), then its tables.
type dist4Buf struct {
	g     *dealerGraph
	lanes []lane
}

// dist4 is dist for up to four shoes at once (len(shoes) = len(outs) ≤
// 4): one pass over the graph carries the four probabilities of each
// state, so that the indexing is shared. Each shoe's numbers are dist's,
// operation for operation (a lane whose state is unreachable adds zeros).
func (g *dealerGraph) dist4(shoes []Counts, outs []*[outcomes]float64, scratch *dist4Buf) {
	var sh [lanes]*Counts
	for j := range sh {
		sh[j] = &shoes[min(j, len(shoes)-1)] // spare lanes repeat a shoe
	}
	ns, nm, nc, nw := len(g.states), len(g.masks), g.classes, kinds*(g.maxHeld+1)
	need := ns + nc*(kinds+1) + nm + nw + g.maxSize + 1
	if scratch.g != g || len(scratch.lanes) < need {
		*scratch = dist4Buf{g: g, lanes: make([]lane, need)}
	}
	buf := scratch.lanes[:need]
	prob, acc, ms, w, inv := buf[:ns], buf[ns:ns+nc*(kinds+1)], buf[ns+nc*(kinds+1):][:nm], buf[ns+nc*(kinds+1)+nm:][:nw], buf[need-g.maxSize-1:]
	prob[0] = lane{1, 1, 1, 1}
	var res [outcomes]lane
	if useAVX2 {
		setupAVX2(&sh, g.masks, &ms[0], &g.heldMax, g.maxHeld+1, &w[0], &inv[0], len(inv))
		statesAVX2(g.states, g.edges, g.held, &prob[0], &acc[0], &w[0], &inv[0])
		classesAVX2(&acc[0], nc, g.gstart, g.groups, g.masks, &ms[0], &res)
	} else {
		g.setup4(&sh, ms, w, inv)
		g.states4(prob, acc, w, inv)
		g.classes4(acc, ms, &res)
	}
	for j, out := range outs {
		for k := range out {
			out[k] += res[k][j]
		}
	}
}

// setup4 fills dist4's tables for the four shoes: ms, the cards left of
// each set of kinds; w, the cards of kind r left when m are held; inv,
// 1/(n - k) for the cards left when k are drawn (0 when none is). The
// first two are counts, exact as float64s. setupAVX2 (amd64) fills the
// same numbers.
func (g *dealerGraph) setup4(sh *[lanes]*Counts, ms, w, inv []lane) {
	for j, s := range sh {
		n := 0
		for _, c := range s {
			n += c
		}
		for i, mask := range g.masks {
			t := 0
			for m := uint(mask); m != 0; m &= m - 1 {
				t += s[bits.TrailingZeros(m)]
			}
			ms[i][j] = float64(t)
		}
		// w[r*(maxHeld+1)+m] = n_r - m: the cards of kind r left when m
		// are held (the edges read no other m).
		for r, c := range s {
			for m := 0; m <= g.heldMax[r]; m++ {
				w[r*(g.maxHeld+1)+m][j] = float64(c - m)
			}
		}
		for k := range inv {
			inv[k][j] = 0
			if n > k {
				inv[k][j] = 1 / float64(n-k)
			}
		}
	}
}
