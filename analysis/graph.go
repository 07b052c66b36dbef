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
	size    []uint8 // cards drawn in each state; states are in order of size
	cls     []uint16
	estart  []int32 // edges of state i: edges[estart[i]:estart[i+1]]
	edges   []dEdge
	hstart  []int32 // the kinds state i holds: held[hstart[i]:hstart[i+1]]
	held    []dHeld
	gstart  []int32 // the endings of class c: groups[gstart[c]:gstart[c+1]]
	groups  []dGroup
	masks   []uint16 // distinct sets of kinds, as bit masks
	classes int
}

// dEdge: drawing a card of kind r (the state already holds m of them) leads
// to state to.
type dEdge struct {
	to int32
	r  uint8
	m  float64
}

// dHeld: the state holds m cards of kind r.
type dHeld struct {
	r uint8
	m float64
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
	index := map[pack]int32{0: 0}
	states := []st{{0, rules.Count{}.Add(kindCard[up])}}
	maskIdx := map[uint16]uint16{}
	classIdx := map[[outcomes]uint16]uint16{}
	var classEnds [][outcomes]uint16
	for i := 0; i < len(states); i++ {
		s := states[i]
		g.size = append(g.size, uint8(s.comp.size()))
		g.estart = append(g.estart, int32(len(g.edges)))
		g.hstart = append(g.hstart, int32(len(g.held)))
		var ends [outcomes]uint16
		for r := 0; r < kinds; r++ {
			if m := s.comp.get(r); m > 0 {
				g.held = append(g.held, dHeld{uint8(r), float64(m)})
			}
			c := s.comp.add(r)
			n := s.count.Add(kindCard[r])
			if p.DealerDraws(n) {
				j, ok := index[c]
				if !ok {
					j = int32(len(states))
					index[c] = j
					states = append(states, st{c, n})
				}
				g.edges = append(g.edges, dEdge{to: j, r: uint8(r), m: float64(s.comp.get(r))})
				continue
			}
			ends[dealerClass(n)] |= 1 << r
		}
		ci, ok := classIdx[ends]
		if !ok {
			ci = uint16(len(classEnds))
			classIdx[ends] = ci
			classEnds = append(classEnds, ends)
		}
		g.cls = append(g.cls, ci)
	}
	g.estart = append(g.estart, int32(len(g.edges)))
	g.hstart = append(g.hstart, int32(len(g.held)))
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
	var nf [kinds]float64
	n := 0
	for r, c := range s {
		nf[r] = float64(c)
		n += c
	}
	ns, nm, nc := len(g.size), len(g.masks), g.classes
	need := ns + nm + nc*(kinds+1)
	if cap(*scratch) < need {
		*scratch = make([]float64, need)
	}
	buf := (*scratch)[:need]
	clear(buf)
	prob, ms, acc := buf[:ns], buf[ns:ns+nm], buf[ns+nm:]
	for i, mask := range g.masks {
		t := 0
		for m := uint(mask); m != 0; m &= m - 1 {
			t += s[bits.TrailingZeros(m)]
		}
		ms[i] = float64(t)
	}
	var inv [32]float64
	for k := range inv {
		if n > k {
			inv[k] = 1 / float64(n-k)
		}
	}
	prob[0] = 1
	edges, held := g.edges, g.held
	for i := range prob {
		pr := prob[i]
		if pr == 0 {
			continue
		}
		pr *= inv[g.size[i]&31]
		e0, e1 := g.estart[i], g.estart[i+1]
		for _, e := range edges[e0:e1] {
			prob[e.to] += pr * (nf[e.r] - e.m)
		}
		c := int(g.cls[i]) * (kinds + 1)
		acc[c+kinds] += pr
		h0, h1 := g.hstart[i], g.hstart[i+1]
		for _, h := range held[h0:h1] {
			acc[c+int(h.r)] += pr * h.m
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
