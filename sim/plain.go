package sim

import (
	"sabot/rules"
	"sabot/shoe"
)

// The plain round: the fast path's named specialization, made once per run
// for the
// commonest set-up: one box, the player's, no option of the round that the
// strategy or the rules leave unused (no challenge, no declaration,
// insurance and even money declined under every up card), and either a
// flat bet without a count or a count that only sets the stake (a ramp, no
// index play, no wonging: the player plays the same at every count, and
// his cards are counted when the round ends, as playFast counts them). It reads the same tables (fastPlan), and plays the round
// playFast plays card for card; what it leaves out are the checks for the
// options that are off, the loops over boxes and hands, and the stake
// table: a hand that splits goes on as playFast plays it (playBoxFast).
// It is not a third implementation of the round: TestPlainAgreesWithEngine
// plays the same shoes through it (runPlain, its loop and end of the round
// included) and through the checked engine and compares every round;
// TestFastPath and TestFastPathStats hold it to the general path, and
// TestPlainChosen checks which set-ups take it. A rule it reads changes
// here as in playFast, or the first of these fails.

// plainPlan is what the plain round adds to the fast path's tables.
type plainPlan struct {
	// open is an unsplit two-card hand's decision (fastStrategy.two) by
	// its cards' values and the up card's value, as decideFast looks it
	// up.
	open [16][16][16]uint8
	// lv is each stake level's (fastPlan.levels'): what an outcome nets
	// an unsplit hand, and the stake.
	lv []plainLevel
	// dist is the distribution's bucket (distIndex) of a round's net x,
	// at dist[x-distLo], for the nets a round can make; others are
	// computed.
	dist   []uint8
	distLo int64
	stake  int64 // level 0's, the flat bettor's
}

// plainLevel is a stake level of the plain round: net is what an outcome
// nets an unsplit hand, by doubled (fastLevel.net times the stakes it
// settles).
type plainLevel struct {
	net   [maxOutcomes][2]int64
	stake int64
}

// newPlainPlan returns the plain round's tables, or nil when the
// configuration needs a check the plain round leaves out.
func newPlainPlan(cfg *Config, fp *fastPlan) *plainPlan {
	p := cfg.Profile
	// A count may only set the stake: an index play or insurance at a
	// count needs the live count at the decision, and a wonged-out
	// player's round is another player's.
	if cfg.Count != nil && (fp.mine.t.Indices || cfg.Wong.HasIn || cfg.Wong.HasOut) {
		return nil
	}
	if cfg.Boxes != 1 || cfg.Others != 0 || p.Challenge || p.ChallengeSplitAce || p.DeclareInitialAce {
		return nil
	}
	fs := fp.mine
	for up := 1; up <= 10; up++ {
		// (Offered or not: a strategy that never takes them.)
		if fs.t.Insure(up, false, 0) || fs.t.Insure(up, true, 0) || fs.t.EvenMoney(up, 0) {
			return nil
		}
	}
	pp := &plainPlan{}
	for v0 := 1; v0 <= 10; v0++ {
		for v1 := 1; v1 <= 10; v1++ {
			// decideFast's kind and legal moves for an unsplit hand.
			s := fp.next[fp.next[0][v0]][v1]
			kind, lg := fp.kindOf[s], uint8(0)
			if v0 == v1 {
				kind, lg = uint8(kPair+v0-1), fp.splitLg[0][0][1]
			}
			lg |= fp.lgOf[0] & fp.lgMask[s]
			for up := 1; up <= 10; up++ {
				pp.open[v0][v1][up] = fs.two[kind][lg][fp.upCol[up]]
			}
		}
	}
	pp.lv = make([]plainLevel, len(fp.levels))
	for k := range fp.levels {
		lv, pl := &fp.levels[k], &pp.lv[k]
		pl.stake = lv.stake
		for o := range pl.net {
			for dbl := range pl.net[o] {
				pl.net[o][dbl] = lv.net[o] * int64(fp.stakes[o][0][dbl])
			}
		}
	}
	lv := &fp.levels[0]
	pp.stake = lv.stake
	// A round's net is within a few stakes (more with a rich payout or
	// many split hands); the table covers ±8 stakes and a little.
	unit := float64(cfg.Unit)
	if bound := 8*lv.stake + 64; bound <= 1<<12 {
		pp.distLo = -bound
		pp.dist = make([]uint8, 2*bound+1)
		for i := range pp.dist {
			pp.dist[i] = uint8(distIndex(2 * float64(int64(i)+pp.distLo) / unit))
		}
	}
	return pp
}

// playPlain plays one round as playFast does, for the plain set-ups
// (newPlainPlan). It needs four cards before the deck's limit (refill).
func (t *table) playPlain() {
	d := t.d
	start := d.pos
	// (A split hand's decisions may ask the live count, which plays the
	// same at every count here: from this round's cards.)
	t.fstart, t.hiddenTags, t.holeHidden = start, 0, false
	lv := &t.plain.lv[t.fbLevel]
	net, bj := t.plainRound(lv)
	b := &t.fb[0]
	t.w, t.x, b.net0, b.bj = lv.stake, net, net, bj
	t.roundHadBJ = bj
	if t.counting { // every card is face up now
		t.rc += t.tags(d.buf[start:d.pos])
	}
	t.endRound(start)
}

// plainRound plays a plain round's cards, from the deck's position, and
// returns the player's net at the stake level lv and whether he had a
// blackjack; endRound (or runPlain) ends it.
func (t *table) plainRound(lv *plainLevel) (net int64, bj bool) {
	fp, pp, d := t.fp, t.plain, t.d
	pos := d.pos
	buf := d.buf[pos : pos+4]
	// First cards, the up card, second cards, the hole card.
	v0, upv, v1 := fp.value[buf[0]], fp.value[buf[1]], fp.value[buf[2]]
	pos += 3
	s := fp.next[fp.next[0][v0&15]][v1&15]
	ds, dn := fp.next[0][upv&15], 1
	holeCard := t.p.HoleCard
	if holeCard != rules.NoHole {
		ds, dn = fp.next[ds][fp.value[buf[3]]&15], 2
		pos++
	}
	pc, dbl := uint8(pcBlackjack), 0
	switch {
	case holeCard == rules.Peek && ds == 11|stAce: // the peek: a dealer blackjack ends the round
		d.pos = pos
		if s != 11|stAce {
			pc = fp.total[s]
		}
		return lv.net[fp.outcome[pc&31][dcBlackjack]&(maxOutcomes-1)][0], s == 11|stAce
	case s == 11|stAce: // a blackjack stands
	default:
		switch Move(pp.open[v0&15][v1&15][upv&15]) {
		case Stand:
			pc = fp.total[s]
		case Hit:
			// Then, with three cards and more, hit or stand (more
			// encodes 21 and bust), as decideFast.
			col := fp.upCol[upv&15]
			more := &fp.mine.more
			cs, limit := d.buf, d.limit
			for a := uint8(Hit); a == uint8(Hit); {
				if pos >= limit {
					d.pos = pos
					d.refill()
					limit = d.limit
				}
				s = fp.nextCard[s&63][cs[pos]&63]
				pos++
				a = more[s][col&15]
			}
			pc = fp.total[s]
		case Double:
			s = fp.next[s][fp.value[d.at(pos)]&15]
			pos++
			pc, dbl = fp.total[s], 1
		case Surrender:
			pc = pcSurrender
		case Split:
			d.pos = pos
			return t.plainSplit(s, v0, v1, upv, ds, dn), false
		}
	}
	// The dealer (AR-13, AR-14, ES-05, VE-08): his second card where he
	// has none, then his rule if he plays in full, as playFast.
	need := fp.needOf[pc&31]
	if dn == 1 && fp.second[need&3][upv&15] {
		ds, dn = fp.next[ds][fp.value[d.at(pos)]&15], 2
		pos++
	}
	dc := uint8(dcBlackjack)
	if dn != 2 || ds != 11|stAce {
		if need == uint8(rules.DealerFull) {
			cs, limit := d.buf, d.limit
			for fp.draws[ds] {
				if pos >= limit {
					d.pos = pos
					d.refill()
					limit = d.limit
				}
				ds = fp.dealerNext[ds&63][cs[pos]&63]
				pos++
			}
		}
		dc = fp.total[ds]
	}
	d.pos = pos
	return lv.net[fp.outcome[pc&31][dc&31]&(maxOutcomes-1)][dbl&1], pc == pcBlackjack
}

// plainSplit plays on a plain round whose hand splits, as playFast: the
// box's hands (playBoxFast), the dealer, the settlement. It returns the
// net.
func (t *table) plainSplit(s, v0, v1, upv, ds uint8, dn int) (net int64) {
	fp := t.fp
	b := &t.fb[0]
	b.hands[0] = fhand{s: s, n: 2, v0: v0, v1: v1}
	b.n = 1
	t.playBoxFast(b, upv, fp.upCol[upv&15])
	need := uint8(rules.DealerStands)
	for k := range b.hands[:b.n] {
		need = max(need, fp.needOf[b.hands[k].pc&31])
	}
	dc := t.dealerFast(need, ds, dn, upv)
	for k := range b.hands[:b.n] {
		h := &b.hands[k]
		o := fp.outcome[h.pc&31][dc&31] & (maxOutcomes - 1)
		net += b.lv.net[o] * int64(fp.stakes[o][b2i(k > 0)&1][b2i(h.doubled)&1])
	}
	return net
}

// runPlain is runFlat's loop on plain rounds, each ended here as endRound
// ends it where the cards go to a discard tray or a continuous shuffler.
func (t *table) runPlain(st *Stats, rounds int64, finish bool) (fresh bool) {
	pp, d := t.plain, t.d
	p := t.p
	unit := float64(t.cfg.Unit)
	perHalf, exact := 2/unit, t.cfg.Unit&(t.cfg.Unit-1) == 0
	dist := &st.Dist
	collected := d.proc.Collected != shoe.DiscardTray && !d.csm
	var n, x, voids int64
	var boxes, bjs int64 // (tally's, for the plain rounds)
	var wins [3]int64
	xx := 0.0
	fresh = true
	for ; n < rounds || finish && !fresh; n++ {
		s0 := t.shoes
		var v int64
		if d.limit-d.pos < 4 || collected {
			t.playFast() // (the round ends there)
			v = t.x
			voids += int64(b2i(t.void))
		} else {
			net, bj := t.plainRound(&pp.lv[0])
			// endRound: a void round (AR-08, EG-04), the box's
			// result, the shuffle (EG-05, AR-08).
			cutOut := d.cut >= 0 && d.pos > d.cut
			if out := d.pos > d.n; out || p.LastRoundVoid && cutOut {
				t.void = true
				voids++
			} else {
				t.void = false
				v = net
				boxes++
				bjs += int64(b2i(bj))
				wins[1+b2i(net < 0)-b2i(net > 0)]++
			}
			// (The bank's rounds and blackjacks, FAM-02, count only
			// where the cards are collected: those rounds end in
			// playFast.)
			switch {
			case d.csm:
				t.shuffle()
			case d.pos > d.n, cutOut:
				t.endShoe()
			}
		}
		fresh = t.shoes != s0
		fv := float64(v)
		x += v
		xx += fv * fv
		if i := uint64(v - pp.distLo); i < uint64(len(pp.dist)) {
			dist[pp.dist[i]]++
		} else {
			q := 2 * fv / unit
			if exact {
				q = fv * perHalf
			}
			dist[distIndex(q)]++
		}
	}
	for i := range wins {
		t.boxWins[i] += wins[i]
	}
	t.playerBoxes += boxes
	t.blackjacks += bjs
	st.addFlat(n, voids, x, xx, pp.stake)
	dist[distRange] -= voids
	return fresh
}
