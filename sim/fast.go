package sim

import (
	"math"
	"slices"

	"sabot/card"
	"sabot/rules"
)

// The fast path: a round for the common case, one bettor per box (no back
// bets), no challenge (AR-10), no declaration (AR-11), no pontoon bonuses
// (PON-01, PON-02), every box played by a *Table. It is chosen once per run
// (newTable) and plays exactly the rounds table.play plays
// (TestAgreesWithEngine runs both paths against the engine, TestFastPath
// checks them against each other). It writes none of the rules again:
// everything it knows of them is a table filled once from the rules' own
// code (rules.Count, Profile.DealerDraws, CanDoubleOn, MustDraw, Settle,
// Net, Pays) and of the strategy from Table.Play and Table.Declare.
//
// A hand is a small state: its hard total (every Ace 1) and whether it
// holds an Ace (soft when that Ace can count 11), one byte; totals over 21
// are one state, bust.

// Hand states.
const (
	stAce   = 32 // the hand holds an Ace
	stBust  = 22 // over 21 (with or without an Ace)
	nStates = 64
)

// Player classes for settlement: 0..21 a total (not a two-card 21), then:
const (
	pcBust       = 22
	pcSurrender  = 23
	pcBlackjack  = 24 // a two-card 21 on an unsplit hand
	pcSplit21    = 25 // a two-card 21 on a split hand (AR-19: a blackjack where split_blackjack is blackjack-even)
	pcSplit21At1 = 26 // the same with its Ace declared 1 (VE-13)
	nPClasses    = 27
)

// Dealer classes: 0..21 a total, then:
const (
	dcBust      = 22
	dcBlackjack = 23
	nDClasses   = 24
)

// Two-card decision kinds: a pair by value (0..9 for Ace..ten), a hard or
// soft total, or an Ace on a split ten-value declared 1 or 11 (VE-13).
const (
	kPair     = 0
	kHard     = 10 // + total 0..21
	kSoft     = 32 // + total 0..21
	kTenAce1  = 54
	kTenAce11 = 55
	nKinds    = 56
)

// Legal-move bits of a two-card decision besides hit and stand.
const (
	lgDouble = 1 << iota
	lgSplit
	lgSurrender
	nLegal = 8
)

// dynamic marks a decision that depends on the count: the table's index
// plays decide it at the time (Table.Play).
const dynamic = 0x80

const maxOutcomes = 16

// fastPlan is what the fast path knows of the rules: tables computed once.
type fastPlan struct {
	p *rules.Profile

	next      [nStates * 16]uint8 // next[s<<4|v]: the state after a card of value v
	total     [nStates]uint8      // Total (22: bust)
	draws     [nStates]bool       // DealerDraws
	canDouble [nStates]bool       // CanDoubleOn, two cards
	mustDraw  [nStates]bool       // MustDraw (VE-06)
	value     [256]uint8          // card code → value 1..10
	upCol     [11]uint8           // up-card value → strategy column

	// Settlement: the outcome of a player class against a dealer class,
	// and per stake level what each outcome nets.
	outcome  [nPClasses][nDClasses]uint8
	origOnly [maxOutcomes]bool
	needOf   [nPClasses]uint8 // how far the dealer must play for a hand (AR-14)
	levels   []fastLevel

	mine, other *fastStrategy
}

// fastLevel is one stake: 1 unit (level 0, the flat bet and the other
// players' bets) or a step of the ramp.
type fastLevel struct {
	stake     int64
	net       [maxOutcomes]int64
	half      int64 // the insurance stake (stake/2)
	insWin    int64 // Pays(half, 2)
	evenMoney int64 // Pays(stake, 1)
}

// fastStrategy is a *Table tabulated by decision.
type fastStrategy struct {
	t       *Table
	counted bool // shown the count (the player's own boxes when counting)

	two    [nKinds][nLegal][10]uint8 // two-card decisions by kind, legal bits, column
	more   [nStates][10]uint8        // three or more cards, by state
	tenAce [10]uint8                 // VE-13: the value an Ace on a split ten counts

	twoView  [nKinds]Hand
	moreView [nStates]Hand
}

// fastEligible reports whether a configuration can play on the fast path.
func fastEligible(cfg *Config) bool {
	p := cfg.Profile
	if cfg.noFast || cfg.BackBets > 0 || p.Challenge || p.ChallengeSplitAce || p.DeclareInitialAce || p.FiveCard21 || p.ThreeSevens {
		return false
	}
	_, ok1 := cfg.Strategy.(*Table)
	_, ok2 := cfg.OthersStrategy.(*Table)
	return ok1 && ok2
}

// stateCount is a rules.Count with the state's hard total and Aces.
func stateCount(s int, n uint8) rules.Count {
	c := rules.Count{Hard: uint8(s &^ stAce), N: n}
	if s&stAce != 0 {
		c.Aces = 1
	}
	return c
}

func newFastPlan(cfg *Config) *fastPlan {
	p := cfg.Profile
	fp := &fastPlan{p: p}
	for s := 0; s < nStates; s++ {
		hard := s &^ stAce
		if hard > stBust {
			fp.total[s] = stBust
			continue
		}
		c := stateCount(s, 3)
		fp.total[s] = uint8(min(c.Total(), stBust))
		if fp.total[s] < stBust {
			fp.draws[s] = p.DealerDraws(c)
			fp.mustDraw[s] = p.MustDraw(c)
			c.N = 2
			fp.canDouble[s] = p.CanDoubleOn(c)
		}
		for v := 1; v <= 10; v++ {
			nh, ace := hard+v, s&stAce != 0 || v == 1
			ns := min(nh, stBust)
			if ace && ns < stBust {
				ns |= stAce
			}
			if hard >= stBust {
				ns = stBust
			}
			fp.next[s<<4|v] = uint8(ns)
		}
	}
	for _, c := range card.Deck() {
		fp.value[c] = uint8(c.Value())
	}
	for v := 1; v <= 10; v++ {
		fp.upCol[v] = uint8(col(v))
	}
	fp.settlement(cfg)
	mine, _ := cfg.Strategy.(*Table)
	other, _ := cfg.OthersStrategy.(*Table)
	fp.mine = fp.tabulate(mine, cfg.Count != nil)
	fp.other = fp.tabulate(other, false)
	return fp
}

// settlement tabulates Settle over player and dealer classes and Net over
// stake levels.
func (fp *fastPlan) settlement(cfg *Config) {
	p := fp.p
	tenAce := rules.CountOf(card.New(card.Ten, card.Spades), card.New(card.Ace, card.Spades))
	player := func(pc int) rules.PlayerHand {
		switch pc {
		case pcBust:
			return rules.PlayerHand{Count: rules.Count{Hard: 22, N: 3}}
		case pcSurrender:
			return rules.PlayerHand{Count: rules.Count{Hard: 16, N: 2}, Surrendered: true}
		case pcBlackjack:
			return rules.PlayerHand{Count: tenAce}
		case pcSplit21:
			return rules.PlayerHand{Count: tenAce, Split: true}
		case pcSplit21At1:
			return rules.PlayerHand{Count: tenAce.Declare(1), Split: true}
		}
		return rules.PlayerHand{Count: rules.Count{Hard: uint8(pc), N: 3}}
	}
	dealer := func(dc int) rules.DealerHand {
		switch dc {
		case dcBust:
			return rules.DealerHand{Count: rules.Count{Hard: 22, N: 3}}
		case dcBlackjack:
			return rules.DealerHand{Count: tenAce}
		}
		return rules.DealerHand{Count: rules.Count{Hard: uint8(dc), N: 3}}
	}
	var outs []rules.Outcome
	for pc := 0; pc < nPClasses; pc++ {
		for dc := 0; dc < nDClasses; dc++ {
			o := p.Settle(player(pc), dealer(dc))
			i := slices.Index(outs, o)
			if i < 0 {
				i = len(outs)
				outs = append(outs, o)
				fp.origOnly[i] = o.OriginalOnly
			}
			fp.outcome[pc][dc] = uint8(i)
		}
		// AR-14: how far the dealer must play for this hand (dealerNeed).
		h := player(pc)
		switch {
		case pc == pcBust:
		case pc == pcSurrender:
			if p.Surrender == rules.LateSurrender {
				fp.needOf[pc] = 1
			}
		case p.IsBlackjack(h):
			fp.needOf[pc] = 1
		default:
			fp.needOf[pc] = 2
		}
	}
	units := []int64{1}
	if cfg.Count != nil && len(cfg.Ramp.Steps) > 0 {
		units = append(units, max(cfg.Ramp.Min, 1))
		for _, s := range cfg.Ramp.Steps {
			units = append(units, s.Units)
		}
	}
	for _, u := range units {
		l := fastLevel{stake: u * cfg.Unit}
		for i, o := range outs {
			l.net[i] = p.Net(l.stake, o)
		}
		l.half = l.stake / 2
		l.insWin = p.Pays(l.half, 2)
		l.evenMoney = p.Pays(l.stake, 1)
		fp.levels = append(fp.levels, l)
	}
}

// level returns the stake level of the player's boxes at a count: Ramp.Units
// by the index of its step.
func (t *table) level(count float64) int {
	if !t.counting || len(t.cfg.Ramp.Steps) == 0 {
		return 0
	}
	k := 1
	for _, s := range t.cfg.Ramp.Steps {
		if count < s.Count {
			break
		}
		k++
	}
	return k
}

// tabulate fills a strategy's decisions from Table.Play for every decision
// the fast path can ask. A decision whose answer changes with the count
// (an index play) is marked dynamic when the strategy is shown the count,
// else taken at count 0 as the general path shows it.
func (fp *fastPlan) tabulate(t *Table, counted bool) *fastStrategy {
	p := fp.p
	fs := &fastStrategy{t: t, counted: counted}
	counts := []float64{0}
	if counted && t.Indices {
		// Play is constant between the thresholds of its index plays:
		// one count below them all and each threshold see every answer.
		counts = []float64{math.Inf(-1)}
		for r := range t.play {
			for c := range t.play[r] {
				for _, e := range []index{t.play[r][c], t.surr[r][c]} {
					if e.has && !slices.Contains(counts, e.at) {
						counts = append(counts, e.at)
					}
				}
			}
		}
	}
	decide := func(h *Hand, up int, legal Legal) uint8 {
		var first Move
		for i, c := range counts {
			m := t.Play(h, up, legal, c)
			if !legal.Has(m) {
				m = Hit // as decide does
			}
			if i == 0 {
				first = m
			} else if m != first {
				return dynamic
			}
		}
		return uint8(first)
	}
	ace, ten := card.New(card.Ace, card.Spades), card.New(card.Ten, card.Spades)
	for k := 0; k < nKinds; k++ {
		var h Hand
		var s int
		switch {
		case k < kHard:
			v := k + 1
			c := card.New(card.Rank(v), card.Spades)
			h = Hand{Count: rules.CountOf(c, c), Pair: v}
			s = int(fp.next[int(fp.next[v])<<4|v])
		case k < kSoft:
			s = k - kHard
			h = Hand{Count: rules.Count{Hard: uint8(s), N: 2}}
		case k < kTenAce1:
			tot := k - kSoft
			if tot < 12 {
				continue
			}
			s = (tot - 10) | stAce
			h = Hand{Count: rules.Count{Hard: uint8(tot - 10), N: 2, Aces: 1}}
		case k == kTenAce1:
			s = 11
			h = Hand{Count: rules.CountOf(ten, ace).Declare(1), TenAce: true}
		default:
			s = 21
			h = Hand{Count: rules.CountOf(ten, ace).Declare(11), TenAce: true}
		}
		h.Hands = 1
		fs.twoView[k] = h
		for lg := 0; lg < nLegal; lg++ {
			legal := Legal(0).With(Hit)
			if !fp.mustDraw[s] {
				legal = legal.With(Stand)
			}
			if lg&lgDouble != 0 {
				legal = legal.With(Double)
			}
			if lg&lgSplit != 0 {
				legal = legal.With(Split)
			}
			if lg&lgSurrender != 0 {
				legal = legal.With(Surrender)
			}
			for up := 1; up <= 10; up++ {
				fs.two[k][lg][col(up)] = decide(&h, up, legal)
			}
		}
	}
	for s := 0; s < nStates; s++ {
		if fp.total[s] >= stBust {
			continue
		}
		h := Hand{Count: stateCount(s, 3), Hands: 1}
		fs.moreView[s] = h
		legal := Legal(0).With(Hit)
		if !fp.mustDraw[s] {
			legal = legal.With(Stand)
		}
		for up := 1; up <= 10; up++ {
			fs.more[s][col(up)] = decide(&h, up, legal)
		}
	}
	if p.SplitTenAceChoice {
		for up := 1; up <= 10; up++ {
			h := Hand{Count: rules.CountOf(ten, ace), Split: true, Hands: 2, TenAce: true}
			fs.tenAce[col(up)] = uint8(t.Declare(&h, up, 0))
		}
	}
	return fs
}

// fhand is a hand on the fast path.
type fhand struct {
	s      uint8 // state
	n      uint8 // cards
	v0, v1 uint8 // the first two cards' values
	pc     uint8 // settlement class, once played
	tenAce uint8 // VE-13: 0, or the value its Ace was declared

	split, splitAces, fromTens bool
	done, doubled, surrender   bool
	em                         bool  // paid even money
	hidden                     int32 // AR-17: the tag of a double's card dealt face down
}

// fbox is a box on the fast path: one bettor.
type fbox struct {
	hands [rules.MaxHands]fhand
	n     int
	mine  bool
	fs    *fastStrategy
	lv    *fastLevel
	ins   int64
	net0  int64
}

// seatFast lays out the boxes as seat does.
func (t *table) seatFast(playing bool, count float64) {
	fp := t.fp
	lv := &fp.levels[t.level(count)]
	if playing {
		for i := 0; i < t.cfg.Boxes; i++ {
			b := &t.fb[t.nBox]
			t.nBox++
			b.mine, b.fs, b.lv = true, fp.mine, lv
		}
	}
	others := t.cfg.Others
	if !playing && others == 0 {
		others = 1
	}
	for i := 0; i < others; i++ {
		b := &t.fb[t.nBox]
		t.nBox++
		b.mine, b.fs, b.lv = false, fp.other, &fp.levels[0]
	}
}

// dealV deals a card seen by all and returns its value.
func (t *table) dealV() uint8 {
	d := t.d
	if d.pos >= d.limit {
		d.refill()
	}
	c := d.buf[d.pos]
	d.pos++
	t.rc += t.tag[c]
	return t.fp.value[c]
}

func (t *table) creditF(b *fbox, n int64) {
	if b.mine {
		t.x += n
		b.net0 += n
	}
}

// playFast plays one round on the fast path: table.play for one bettor
// per box, on the tables.
func (t *table) playFast() {
	fp := t.fp
	p := t.p
	d := t.d
	start := d.pos
	t.x, t.bx, t.w, t.bw = 0, 0, 0, 0
	t.roundHadBJ = false
	boxes := t.fb[:t.nBox]

	// First cards, the up card, second cards, the hole card.
	for i := range boxes {
		b := &boxes[i]
		b.n, b.net0, b.ins = 1, 0, 0
		if b.mine {
			t.w += b.lv.stake
		}
		v := t.dealV()
		b.hands[0] = fhand{s: fp.next[v], n: 1, v0: v}
	}
	upC := d.draw()
	t.rc += t.tag[upC]
	t.up, t.hole, t.holeHidden = upC, 0, false
	upv := fp.value[upC]
	ds, dn := fp.next[upv], 1
	upAce, upTen := upv == 1, upv == 10
	for i := range boxes {
		h := &boxes[i].hands[0]
		v := t.dealV()
		h.v1, h.s, h.n = v, fp.next[int(h.s)<<4|int(v)], 2
		if h.s == 11|stAce {
			h.done = true // a blackjack
		}
	}
	if p.HoleCard != rules.NoHole {
		c := d.draw()
		t.hole, t.holeHidden = c, true
		ds, dn = fp.next[int(ds)<<4|int(fp.value[c])], 2
	}

	// Insurance and even money (ES-10, ES-11, VE-15, VE-16).
	emUp := p.EvenMoney == rules.EvenMoneyAce && upAce || p.EvenMoney == rules.EvenMoneyAceTen && (upAce || upTen)
	if p.Insurance && upAce || emUp {
		for i := range boxes {
			b := &boxes[i]
			h := &b.hands[0]
			bj := h.s == 11|stAce
			count := t.countF(b)
			if bj && emUp && b.fs.t.EvenMoney(int(upv), count) {
				h.em = true
				t.creditF(b, b.lv.evenMoney)
				continue
			}
			if p.Insurance && upAce && b.lv.half >= 1 && (p.InsureBlackjack || !bj) && b.fs.t.Insure(int(upv), bj, count) {
				b.ins = b.lv.half
			}
		}
	}

	if p.HoleCard == rules.Peek && (upAce || upTen) && ds == 11|stAce {
		t.reveal() // the peek: a dealer blackjack ends the round
		for i := range boxes {
			h := &boxes[i].hands[0]
			h.pc = fp.classOf(h)
		}
	} else {
		col := fp.upCol[upv]
		need := uint8(0)
		for i := range boxes {
			b := &boxes[i]
			t.playBoxFast(b, upv, col)
			if b.ins > 0 {
				need = max(need, 1)
			}
			for k := 0; k < b.n; k++ {
				if h := &b.hands[k]; !h.em {
					need = max(need, fp.needOf[h.pc])
				}
			}
		}
		// The dealer (AR-13, AR-14, ES-05, VE-08).
		t.reveal()
		if need > 0 && (dn == 2 || need == 2 || upAce || upTen) {
			if dn == 1 {
				ds, dn = fp.next[int(ds)<<4|int(t.dealV())], 2
			}
			if need == 2 && ds != 11|stAce {
				for fp.draws[ds] {
					ds = fp.next[int(ds)<<4|int(t.dealV())]
					dn++
				}
			}
		}
	}

	// Settlement.
	dc := fp.total[ds]
	if dn == 2 && ds == 11|stAce {
		dc = dcBlackjack
	}
	for i := range boxes {
		b := &boxes[i]
		net := int64(0)
		for k := 0; k < b.n; k++ {
			h := &b.hands[k]
			t.rc += h.hidden // AR-17: the double's card is turned now
			if h.em {
				continue
			}
			o := fp.outcome[h.pc][dc]
			n := b.lv.net[o]
			switch {
			case fp.origOnly[o]:
				if true {
					net += n
				}
			case h.doubled:
				net += 2 * n
			default:
				net += n
			}
		}
		if b.ins > 0 {
			if dc == dcBlackjack {
				net += b.lv.insWin
			} else {
				net -= b.ins
			}
		}
		t.creditF(b, net)
		if h0 := &b.hands[0]; b.n == 1 && h0.n == 2 && h0.s == 11|stAce {
			t.roundHadBJ = true
		}
	}
	t.endRound(start)
}

// countF is the count a box's strategy is shown.
func (t *table) countF(b *fbox) float64 {
	if b.mine {
		return t.count()
	}
	return 0
}

// classOf is a played hand's settlement class.
func (fp *fastPlan) classOf(h *fhand) uint8 {
	switch {
	case h.surrender:
		return pcSurrender
	case h.n == 2 && h.v0+h.v1 == 11 && (h.v0 == 1 || h.v1 == 1):
		switch {
		case !h.split:
			return pcBlackjack
		case h.tenAce == 1:
			return pcSplit21At1
		}
		return pcSplit21
	}
	return fp.total[h.s]
}

// playBoxFast plays a box's hands in order, as playBox.
func (t *table) playBoxFast(b *fbox, upv, col uint8) {
	fp := t.fp
	p := t.p
	for k := 0; k < b.n; k++ {
		h := &b.hands[k]
		if h.n == 1 {
			// A split hand waits for its second card.
			v := t.dealV()
			h.v1, h.s, h.n = v, fp.next[int(h.s)<<4|int(v)], 2
			if h.splitAces && !p.HitSplitAces {
				h.done = true // ES-09, VE-14: one card each
			}
			// VE-13: an Ace on a split ten-value may be counted 1.
			if p.SplitTenAceChoice && h.fromTens && v == 1 {
				h.tenAce = b.fs.tenAce[col]
				if h.tenAce == 1 {
					h.s = 11
				} else {
					h.s = 21
				}
			}
		}
		for !h.done {
			tot := fp.total[h.s]
			if tot > 21 || tot == 21 && (p.StandOn21 || h.n == 2 && h.v0+h.v1 == 11) {
				break
			}
			if !t.decideFast(b, k, upv, col) {
				k-- // split: the same hand again, waiting for its second card
				break
			}
		}
		if h.n >= 2 {
			h.pc = fp.classOf(h)
		}
	}
}

// decideFast takes one decision on a hand and applies it, as decide. It
// reports false after a split.
func (t *table) decideFast(b *fbox, k int, upv, col uint8) bool {
	fp := t.fp
	p := t.p
	fs := b.fs
	h := &b.hands[k]
	var m uint8
	var kind, lg int
	if h.n == 2 {
		switch {
		case h.tenAce == 1:
			kind = kTenAce1
		case h.tenAce == 11:
			kind = kTenAce11
		case h.v0 == h.v1:
			kind = kPair + int(h.v0) - 1
			if b.n < p.MaxHands && !(h.splitAces && !p.ResplitAces) {
				lg |= lgSplit
			}
		case h.s&stAce != 0 && fp.total[h.s] != h.s&^stAce:
			kind = kSoft + int(fp.total[h.s])
		default:
			kind = kHard + int(fp.total[h.s])
		}
		if p.Surrender != rules.NoSurrender && !h.split {
			lg |= lgSurrender
		}
		if !(h.split && !p.DoubleAfterSplit) && !(h.splitAces && !p.HitSplitAces) && fp.canDouble[h.s] {
			lg |= lgDouble
		}
		m = fs.two[kind][lg][col]
	} else {
		m = fs.more[h.s][col]
	}
	if m == dynamic {
		m = t.dynamicMove(fs, h, kind, lg, upv)
	}
	switch Move(m) {
	case Hit:
		h.s = fp.next[int(h.s)<<4|int(t.dealV())]
		h.n++
	case Stand:
		h.done = true
	case Surrender:
		h.surrender, h.done = true, true
	case Double:
		h.doubled, h.done = true, true
		c := t.d.draw()
		if p.DoubleCardFaceDown { // AR-17: turned after the dealer plays
			h.hidden = t.tag[c]
		} else {
			t.rc += t.tag[c]
		}
		h.s = fp.next[int(h.s)<<4|int(fp.value[c])]
		h.n++
	case Split:
		v0, v1 := h.v0, h.v1
		aces, tens := v0 == 1, v0 == 10
		b.hands[b.n] = fhand{s: fp.next[v1], n: 1, v0: v1, split: true, splitAces: aces, fromTens: tens}
		b.n++
		*h = fhand{s: fp.next[v0], n: 1, v0: v0, split: true, splitAces: aces, fromTens: tens}
		return false
	}
	return true
}

// dynamicMove asks the table for a count-dependent decision.
func (t *table) dynamicMove(fs *fastStrategy, h *fhand, kind, lg int, upv uint8) uint8 {
	fp := t.fp
	legal := Legal(0).With(Hit)
	if !fp.mustDraw[h.s] {
		legal = legal.With(Stand)
	}
	view := &fs.moreView[h.s]
	if h.n == 2 {
		view = &fs.twoView[kind]
		if lg&lgDouble != 0 {
			legal = legal.With(Double)
		}
		if lg&lgSplit != 0 {
			legal = legal.With(Split)
		}
		if lg&lgSurrender != 0 {
			legal = legal.With(Surrender)
		}
	}
	m := fs.t.Play(view, int(upv), legal, t.count())
	if !legal.Has(m) {
		m = Hit
	}
	return uint8(m)
}
