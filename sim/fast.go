package sim

import (
	"cmp"
	"math"
	"slices"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// The fast path: a round for the common case, one bettor per box (no back
// bets), no pontoon bonuses (PON-01, PON-02), every box played by a
// *StrategyCard (the strategy cards and index plays of `sabot sim`). It is
// chosen once per run (newTable) and plays exactly the rounds the engine
// plays, card for card (TestAgreesWithEngine holds both paths to the engine, TestFastPath
// and TestFastPathStats hold it to the general path, the engine's round).
// It writes none of the rules again: everything it knows of them is a
// table filled once from the rules' own code (rules.Count, Profile.MaySplit,
// MayDouble, MaySurrender, OneCard, DealerNeed, DealerTakes, MustDraw, Settle, Net,
// Pays), and of the strategy from StrategyCard.Play, Declare and
// Challenge; where the strategy's answer depends on the count (an index
// play) the table says so and StrategyCard.Play answers at the time. The
// commonest set-up (one box, a flat bet, no challenge, declaration or
// insurance) plays a plain round on the same tables (plain.go).
//
// A hand is a small state: its hard total (every Ace 1) and whether it
// holds an Ace (soft when that Ace can count 11), one byte; totals over 21
// are one state, bust. A declared Ace (AR-11, VE-13) is folded into the
// hard total: 11 for good, or 1 with later Aces counting as they may.

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
	pcSplit21    = 25 // a two-card 21 on split Aces (AR-19: a blackjack where split_blackjack is blackjack-even or aces-even)
	pcSplit21At1 = 26 // a split ten's with its Ace declared 1 (VE-13)
	pcSplitTen21 = 27 // a split ten's Ace and ten (AR-19: aces-even pays it as a blackjack)
	nPClasses    = 28
)

// Dealer classes: 0..21 a total, then:
const (
	dcBust      = 22
	dcBlackjack = 23
	nDClasses   = 24
)

// Two-card decision kinds: a pair by value (0..9 for Ace..ten), a hard or
// soft total, an Ace on a split ten-value declared 1 or 11 (VE-13), a hand
// whose Ace was declared 1 or 11 by its hard total, or a pair of Aces so
// declared (AR-11).
const (
	kPair     = 0
	kHard     = 10 // + total 0..21
	kSoft     = 32 // + total 0..21
	kTenAce1  = 54
	kTenAce11 = 55
	kDecl1    = 56 // + hard total 0..11
	kDecl11   = 68 // + hard total 0..11
	kDeclAA1  = 80
	kDeclAA11 = 81
	nKinds    = 82
)

// Legal-move bits of a two-card decision besides hit and stand.
const (
	lgDouble = 1 << iota
	lgSplit
	lgSurrender
	nLegal = 8
)

// dynamic marks a decision that depends on the count: the card's index
// plays decide it at the time (StrategyCard.Play).
const dynamic = 0x80

const maxOutcomes = 16

// fastPlan is what the fast path knows of the rules: tables computed once.
// Tables indexed by a state, a card or a class have a power-of-two size that
// their (masked) index cannot leave, which spares the bounds checks.
type fastPlan struct {
	p *rules.Profile

	next     [256][16]uint8 // next[s][v]: the state after a card of value v
	nextCard [64][64]uint8  // nextCard[s][c]: the state after card c (a code, rank<<2|suit < 64)
	// dealerNext[s][c]: the dealer's state after card c when he draws on
	// state s (Profile.DealerAdd): nextCard under dealer_ace=recount; under
	// stays-one a soft hand's Ace is fixed at 1 first (AR-13).
	dealerNext [64][64]uint8
	total      [256]uint8      // Total (22: bust)
	draws      [256]bool       // DealerTakes a card beyond two, playing in full (DealerDraws)
	second     [4][16]bool     // DealerTakes his second card (no hole card), by need and up card
	mustDraw   [256]bool       // MustDraw (VE-06)
	value      [256]uint8      // card code → value 1..10
	upCol      [16]uint8       // up-card value → strategy column
	kindOf     [256]uint8      // a two-card hand's kind by state, not a pair
	lgOf       [4]uint8        // the double (MayDouble) and surrender bits by unsplit, split, split Aces
	lgMask     [256]uint8      // the legal bits a two-card state allows: no double where MayDouble refuses
	splitLg    [2][2][16]uint8 // lgSplit where a pair may split (MaySplit), by a hand after the box's first (resplit_hands), split Aces and the box's hands
	oneCard    bool            // split Aces take one card (OneCard)
	// resplitLegal: the moves of a new pair of such Aces that may split
	// again: split, and stand unless the hand must draw (VE-06) or
	// declare (AR-11), which it may not.
	resplitLegal Legal
	insUp        [16]bool // insurance offered under this up card
	emUp         [16]bool // even money offered under this up card

	// Settlement: the outcome of a player class against a dealer class,
	// and per stake level what each outcome nets.
	outcome [32][32]uint8
	// stakes[o][split hand][doubled]: how many stakes an outcome settles
	// (Settle's OriginalOnly: only the first hand's original stake).
	stakes [maxOutcomes][2][2]uint8
	needOf [32]uint8 // how far the dealer must play for a hand (AR-14: DealerNeed)
	levels []fastLevel
	// ramp: the ramp's counts where they ascend and are 8 at most
	// (rampSorted; level sums them), +Inf after the last.
	ramp       [8]float64
	rampSorted bool

	mine, other *fastStrategy
}

// fastLevel is one stake: 1 unit (level 0, the flat bet and the other
// players' bets) or a step of the ramp.
type fastLevel struct {
	stake     int64
	net       [maxOutcomes]int64
	half      int64 // the insurance stake (stake/2)
	chal      int64 // the challenge's stake (AR-10: exactly half; 0 for an odd stake)
	insWin    int64 // Pays(half, 2)
	evenMoney int64 // Pays(stake, 1)
}

// fastStrategy is a *StrategyCard tabulated by decision.
type fastStrategy struct {
	t *StrategyCard

	two    [128][nLegal][16]uint8 // two-card decisions by kind, legal bits, column
	more   [256][16]uint8         // three or more cards, by state and column
	tenAce [16]uint8              // VE-13: the value an Ace on a split ten counts
	// resplit: split again or stand, a new pair of Aces that take one
	// card (ES-09 and resplit_aces), by column.
	resplit [16]uint8

	// AR-11: before a hand with an Ace acts it declares it, unless it
	// splits or surrenders (pre, by undeclared kind, the split and
	// surrender bits, column: Split, Surrender or 0); declare is the
	// value (1, 11 or dynamic).
	pre     [64][4][16]uint8
	declare [64][16]uint8

	twoView     [nKinds]Hand
	moreView    [nStates]Hand
	resplitView Hand
}

// fastEligible reports whether a configuration can play on the fast path.
func fastEligible(cfg *Config) bool {
	p := cfg.Profile
	if cfg.noFast || cfg.BackBets > 0 || p.FiveCard21 || p.ThreeSevens {
		return false
	}
	// VE-21: a double over the maximum plays only up to it
	// (max_bet_caps_double), which the fast path does not know; the
	// general path plays a game where a doubled stake could pass it.
	most := int64(1)
	if cfg.Count != nil && len(cfg.Ramp.Steps) > 0 {
		most = cfg.Ramp.Max()
	}
	if p.DoubleCapped(money.Amount(cfg.Unit * most)) {
		return false
	}
	_, ok1 := cfg.Strategy.(*StrategyCard)
	_, ok2 := cfg.OthersStrategy.(*StrategyCard)
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

// stateOf is the state of a count: its hard total, and the Ace bit where
// an Ace counts 11 (Soft); bust over 21. (A hard total over 11 draws and
// settles alike with the bit or without it.)
func stateOf(c rules.Count) uint8 {
	switch {
	case c.Total() > 21:
		return stBust
	case c.Soft():
		return c.Hard | stAce
	}
	return c.Hard
}

func newFastPlan(cfg *Config) *fastPlan {
	p := cfg.Profile
	fp := &fastPlan{p: p}
	for s := range fp.total {
		fp.total[s] = stBust // (states past nStates never occur)
	}
	for s := 0; s < nStates; s++ {
		hard := s &^ stAce
		if hard > stBust {
			continue
		}
		c := stateCount(s, 3)
		fp.total[s] = uint8(min(c.Total(), stBust))
		if fp.total[s] < stBust {
			fp.draws[s] = p.DealerTakes(rules.DealerFull, c)
			fp.mustDraw[s] = p.MustDraw(c)
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
			fp.next[s][v] = uint8(ns)
		}
	}
	for _, c := range card.Deck() {
		fp.value[c] = uint8(c.Value())
		for s := 0; s < nStates; s++ {
			fp.nextCard[s][c&63] = fp.next[s][c.Value()]
		}
	}
	fp.dealerNext = fp.nextCard
	if p.DealerAce != rules.AceRecount {
		for s := 0; s < nStates; s++ {
			if fp.total[s] >= stBust {
				continue
			}
			for _, c := range card.Deck() {
				fp.dealerNext[s][c&63] = stateOf(p.DealerAdd(stateCount(s, 3), c))
			}
		}
	}
	for need := rules.DealerStands; need <= rules.DealerFull; need++ {
		for v := 1; v <= 10; v++ {
			fp.second[need][v] = p.DealerTakes(need, stateCount(int(fp.next[0][v]), 1))
		}
	}
	for v := 1; v <= 10; v++ {
		fp.upCol[v] = uint8(col(v))
		upAce, upTen := v == 1, v == 10
		fp.insUp[v] = p.Insurance && upAce
		fp.emUp[v] = p.EvenMoney == rules.EvenMoneyAce && upAce || p.EvenMoney == rules.EvenMoneyAceTen && (upAce || upTen)
	}
	for s := 0; s < nStates; s++ {
		if tot := int(fp.total[s]); tot < stBust {
			fp.kindOf[s] = uint8(kHard + tot)
			if s&stAce != 0 && tot != s&^stAce {
				fp.kindOf[s] = uint8(kSoft + tot)
			}
		}
	}
	// Whether a two-card hand may double (MayDouble) is a bit by split
	// kind, for a hard 11, and a mask by state, for an unsplit hand: two
	// look-ups and an and. The plan holds where the rules factor so, for
	// every state (a two-card hand is never bust); else the general path
	// plays.
	mayDouble := func(sk, s int) bool {
		return p.MayDouble(rules.HandPos{Count: stateCount(s, 2), Split: sk > 0, SplitAces: sk == 2})
	}
	for sk := 0; sk < 3; sk++ { // unsplit, split, split Aces
		if p.MaySurrender(rules.HandPos{Count: stateCount(11, 2), Split: sk > 0, SplitAces: sk == 2}) {
			fp.lgOf[sk] |= lgSurrender
		}
		if mayDouble(sk, 11) {
			fp.lgOf[sk] |= lgDouble
		}
	}
	for s := range fp.lgMask {
		fp.lgMask[s] = 0xff
		if s >= nStates || fp.total[s] >= stBust || !mayDouble(0, s) {
			fp.lgMask[s] &^= lgDouble
		}
	}
	for sk := 0; sk < 3; sk++ {
		for s := 0; s < nStates; s++ {
			if fp.total[s] < stBust && (fp.lgOf[sk]&fp.lgMask[s]&lgDouble != 0) != mayDouble(sk, s) {
				return nil
			}
		}
	}
	for later := 0; later < 2; later++ {
		for aces := 0; aces < 2; aces++ {
			for n := 1; n < len(fp.splitLg[later][aces]); n++ {
				h := rules.HandPos{Count: rules.Count{N: 2}, Pair: true, Split: aces == 1 || n > 1, SplitAces: aces == 1, Hands: n, Index: later}
				if p.MaySplit(h) {
					fp.splitLg[later][aces][n] = lgSplit
				}
			}
		}
	}
	fp.oneCard = p.OneCard(rules.HandPos{Count: rules.Count{Hard: 2, N: 2, Aces: 2}, Split: true, SplitAces: true, Hands: 2})
	fp.resplitLegal = Legal(0).With(Split)
	if !fp.mustDraw[2|stAce] && !p.DeclareInitialAce {
		fp.resplitLegal = fp.resplitLegal.With(Stand)
	}
	if !fp.settlement(cfg) {
		return nil // (more outcomes than the tables hold: the general path)
	}
	mine, _ := cfg.Strategy.(*StrategyCard)
	other, _ := cfg.OthersStrategy.(*StrategyCard)
	fp.mine = fp.tabulate(mine, cfg.Count != nil)
	fp.other = fp.tabulate(other, false)
	return fp
}

// settlement tabulates Settle over player and dealer classes and Net over
// stake levels. It reports false if Settle has more outcomes than the
// tables hold.
func (fp *fastPlan) settlement(cfg *Config) bool {
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
			return rules.PlayerHand{Count: tenAce, Split: true, SplitAces: true}
		case pcSplitTen21:
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
	var outs []rules.Outcome // (Settle has fewer than maxOutcomes: 9 at most)
	for pc := 0; pc < nPClasses; pc++ {
		for dc := 0; dc < nDClasses; dc++ {
			o := p.Settle(player(pc), dealer(dc))
			i := slices.Index(outs, o)
			if i < 0 {
				if len(outs) == maxOutcomes {
					return false
				}
				i = len(outs)
				outs = append(outs, o)
				fp.stakes[i] = [2][2]uint8{{1, 2}, {1, 2}}
				if o.OriginalOnly {
					fp.stakes[i] = [2][2]uint8{{1, 1}, {0, 0}}
				}
			}
			fp.outcome[pc][dc] = uint8(i)
		}
		// AR-14: how far the dealer must play for this hand.
		fp.needOf[pc] = uint8(p.DealerNeed(player(pc)))
	}
	steps := cfg.Ramp.Steps
	nan := slices.ContainsFunc(steps, func(s Step) bool { return math.IsNaN(s.Count) })
	if len(steps) <= len(fp.ramp) && !nan && slices.IsSortedFunc(steps, func(a, b Step) int { return cmp.Compare(a.Count, b.Count) }) {
		fp.rampSorted = true
		for i := range fp.ramp {
			fp.ramp[i] = math.Inf(1)
			if i < len(steps) {
				fp.ramp[i] = steps[i].Count
			}
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
			l.net[i] = int64(p.Net(money.Amount(l.stake), o))
		}
		l.half = l.stake / 2
		if half, ok := rules.ChallengeStake(money.Amount(l.stake)); ok {
			l.chal = int64(half)
		}
		l.insWin = int64(p.Pays(money.Amount(l.half), 2))
		l.evenMoney = int64(p.Pays(money.Amount(l.stake), 1))
		fp.levels = append(fp.levels, l)
	}
	return true
}

// level returns the stake level of the player's boxes at a count: Ramp.Units
// by the index of its step. Over sorted steps (as ParseRamp makes them) it
// is the number of steps at or below the count, summed without a branch.
func (t *table) level(count float64) int {
	if !t.counting || len(t.cfg.Ramp.Steps) == 0 {
		return 0
	}
	if fp := t.fp; fp.rampSorted {
		c := &fp.ramp // (unused steps are +Inf)
		return 1 + b2i(count >= c[0]) + b2i(count >= c[1]) + b2i(count >= c[2]) + b2i(count >= c[3]) +
			b2i(count >= c[4]) + b2i(count >= c[5]) + b2i(count >= c[6]) + b2i(count >= c[7])
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

// tabulate fills a strategy's decisions from StrategyCard.Play for every
// decision the fast path can ask. A decision whose answer changes with the count
// (an index play) is marked dynamic when the strategy is shown the count,
// else taken at count 0 as the general path shows it.
func (fp *fastPlan) tabulate(t *StrategyCard, counted bool) *fastStrategy {
	p := fp.p
	fs := &fastStrategy{t: t}
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
				if !legal.Has(Hit) {
					m = None // AR-11: declare
				}
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
			s = int(fp.next[fp.next[0][v]][v])
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
		case k == kTenAce11:
			s = 21
			h = Hand{Count: rules.CountOf(ten, ace).Declare(11), TenAce: true}
		case k < kDeclAA1:
			v, hard := 1, k-kDecl1
			if k >= kDecl11 {
				v, hard = 11, k-kDecl11
			}
			if hard < 3 {
				continue // (A-A is a pair)
			}
			s = hard
			if v == 11 {
				s = hard + 10
			}
			h = Hand{Count: rules.Count{Hard: uint8(hard), N: 2, Aces: 1}.Declare(v)}
		default:
			v := 1
			if k == kDeclAA11 {
				v = 11
			}
			s = 1 + v
			h = Hand{Count: rules.CountOf(ace, ace).Declare(v), Pair: 1}
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
	for s := range fs.more {
		if tot := fp.total[s]; s >= nStates || tot >= stBust || tot == 21 && p.StandOn21 {
			// needsDecision: no decision over 21, nor on 21 (AR-12, VE-06).
			for c := range fs.more[s] {
				fs.more[s][c] = uint8(Stand)
			}
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
	if p.DeclareInitialAce {
		// AR-11, the undeclared hands with an Ace: a pair of Aces and
		// the soft totals.
		for k := kPair; k < kSoft+22; k++ {
			if k > kPair && k < kSoft+12 {
				continue
			}
			h := &fs.twoView[k]
			for lg := 0; lg < 4; lg++ {
				var legal Legal
				if lg&1 != 0 {
					legal = legal.With(Split)
				}
				if lg&2 != 0 {
					legal = legal.With(Surrender)
				}
				for up := 1; up <= 10; up++ {
					fs.pre[k][lg][col(up)] = decide(h, up, legal)
				}
			}
			for up := 1; up <= 10; up++ {
				v := t.Declare(h, up, counts[0])
				for _, c := range counts[1:] {
					if t.Declare(h, up, c) != v {
						v = dynamic
					}
				}
				fs.declare[k][col(up)] = uint8(v)
			}
		}
	}
	if p.SplitTenAceChoice {
		for up := 1; up <= 10; up++ {
			h := Hand{Count: rules.CountOf(ten, ace), Split: true, Hands: 2, TenAce: true}
			fs.tenAce[col(up)] = uint8(t.Declare(&h, up, 0))
		}
	}
	if fp.oneCard {
		fs.resplitView = Hand{Count: rules.CountOf(ace, ace), Pair: 1, Split: true, Hands: 2}
		for up := 1; up <= 10; up++ {
			m := decide(&fs.resplitView, up, fp.resplitLegal)
			if m != dynamic {
				m = uint8(fp.resplitMove(Move(m)))
			}
			fs.resplit[col(up)] = m
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
	decl   uint8 // AR-11: 0, or the value its Ace was declared

	split, splitAces, fromTens bool
	done, doubled, surrender   bool
	em                         bool // paid even money
	challenged                 bool // AR-10: a split Ace's challenge was offered
}

// fbox is a box on the fast path: one bettor.
type fbox struct {
	hands [rules.MaxHands]fhand
	n     int
	mine  bool
	bj    bool // the box's hand is a blackjack (an unsplit two-card 21)
	fs    *fastStrategy
	lv    *fastLevel
	ins   int64
	chal  int64 // AR-10: the challenge on the first card, until the second
	chal1 bool  // the player challenged the first card (challenge_after_first)
	net0  int64
}

// seatFast lays out the boxes as seat does. The layout depends only on
// whether the player bets and at which level: it stays from round to round
// until either changes.
func (t *table) seatFast(playing bool, count float64) {
	fp := t.fp
	lv := t.level(count)
	if t.nBox > 0 && playing == t.fbPlaying {
		if playing && lv != t.fbLevel { // the stake changes with the count
			t.fbLevel = lv
			for i := range t.fb[:t.cfg.Boxes] {
				t.fb[i].lv = &fp.levels[lv]
			}
		}
		return
	}
	t.fbPlaying, t.fbLevel = playing, lv
	t.nBox = 0
	if playing {
		for i := 0; i < t.cfg.Boxes; i++ {
			b := &t.fb[t.nBox]
			t.nBox++
			b.mine, b.fs, b.lv = true, fp.mine, &fp.levels[lv]
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

// The count on the fast path: the cards of a round are counted once, when
// it ends (t.rc += the tags of buf[fstart:pos]); a decision that needs the
// count before (an index play, insurance) has liveCount add the cards
// dealt so far but the hole card and an AR-17 double card still face down.

// liveCount is count in the middle of a round on the fast path.
func (t *table) liveCount() float64 {
	if !t.counting {
		return 0
	}
	rc := t.rc - t.hiddenTags + t.tags(t.d.buf[t.fstart:t.d.pos])
	if t.holeHidden {
		rc -= t.tag[t.hole]
	}
	if t.tcEst {
		return t.estimate(rc)
	}
	return t.countOf(rc)
}

// tags sums the count's tags of cards, four at a time.
func (t *table) tags(cs []card.Card) int32 {
	tag := &t.tag
	var a, b int32
	for len(cs) >= 4 {
		a += tag[cs[0]] + tag[cs[1]]
		b += tag[cs[2]] + tag[cs[3]]
		cs = cs[4:]
	}
	for _, c := range cs {
		a += tag[c]
	}
	return a + b
}

// playFast plays one round on the fast path: the engine's round for one
// bettor per box, on the tables.
func (t *table) playFast() {
	if t.plain != nil && t.d.limit-t.d.pos >= 4 {
		t.playPlain()
		return
	}
	fp := t.fp
	p := t.p
	d := t.d
	start := d.pos
	t.fstart, t.hiddenTags = start, 0
	t.x, t.w = 0, 0
	t.emx, t.emw, t.embx, t.embw = 0, 0, 0, 0
	t.roundHadBJ = false
	boxes := t.fb[:t.nBox]

	// First cards, the up card, second cards, the hole card.
	for i := range boxes {
		b := &boxes[i]
		b.n, b.net0, b.ins = 1, 0, 0
		if b.mine {
			t.w += b.lv.stake
		}
		v := fp.value[d.draw()]
		b.hands[0] = fhand{s: fp.next[0][v&15], n: 1, v0: v}
	}
	upC := d.draw()
	upv := fp.value[upC]
	t.up, t.hole, t.holeHidden = upC, 0, false
	ds, dn := fp.next[0][upv&15], 1
	challenged := p.Challenge && t.challengeFast(boxes, upv)
	bjs := false
	for i := range boxes {
		h := &boxes[i].hands[0]
		v := fp.value[d.draw()]
		h.v1, h.s, h.n = v, fp.next[h.s][v&15], 2
		h.done = h.s == 11|stAce // a blackjack
		bjs = bjs || h.done
	}
	if challenged {
		for i := range boxes {
			t.settleChallenge(&boxes[i], boxes[i].hands[0].v1)
		}
	}
	if p.HoleCard != rules.NoHole {
		c := d.draw()
		t.hole, t.holeHidden = c, true
		ds, dn = fp.next[ds][fp.value[c]&15], 2
	}

	// Insurance and even money (ES-10, ES-11, VE-15, VE-16): even money
	// only for a blackjack.
	if fp.insUp[upv&15] || bjs && fp.emUp[upv&15] {
		t.insuranceFast(boxes, upv)
	}

	var dc uint8                                    // the dealer's class
	if p.HoleCard == rules.Peek && ds == 11|stAce { // (only an Ace or a ten-value up card makes one)
		t.holeHidden = false // the peek: a dealer blackjack ends the round
		dc = dcBlackjack
		for i := range boxes {
			h := &boxes[i].hands[0]
			h.pc = fp.classOf(h)
		}
	} else {
		col := fp.upCol[upv&15]
		need := uint8(t.p.DealerFloor())
		for i := range boxes {
			b := &boxes[i]
			t.playBoxFast(b, upv, col)
			if b.ins > 0 {
				need = max(need, uint8(rules.DealerTwoCards))
			}
			hands := b.hands[:b.n]
			for k := range hands {
				if h := &hands[k]; !h.em {
					need = max(need, fp.needOf[h.pc&31])
				}
			}
		}
		// The dealer (AR-13, AR-14, ES-05, VE-08): his second card
		// where he has none, then his rule if he plays in full.
		t.holeHidden = false
		dc = t.dealerFast(need, ds, dn, upv)
	}

	// Settlement.
	for i := range boxes {
		b := &boxes[i]
		net := int64(0)
		hands := b.hands[:b.n]
		for k := range hands {
			h := &hands[k]
			if h.em {
				continue
			}
			// The stakes the outcome settles: the original and the
			// double, or only the first hand's original (OriginalOnly).
			o := fp.outcome[h.pc&31][dc&31] & (maxOutcomes - 1)
			net += b.lv.net[o] * int64(fp.stakes[o][b2i(k > 0)&1][b2i(h.doubled)&1])
		}
		if b.ins > 0 {
			if dc == dcBlackjack {
				net += b.lv.insWin
			} else {
				net -= b.ins
			}
		}
		if b.mine {
			t.x += net
			b.net0 += net
		}
		// (The state first: it is rarely a blackjack's, while n is as
		// often 2 as not, a branch the processor cannot predict.)
		h0 := &b.hands[0]
		b.bj = h0.s == 11|stAce && h0.n == 2 && b.n == 1
		if b.bj {
			t.roundHadBJ = true
		}
	}
	if t.counting { // every card is face up now
		t.rc += t.tags(d.buf[start:d.pos])
	}
	t.endRound(start)
}

// challengeFast is the challenge on a first-card Ace, before the second
// cards (AR-10), as in play. It reports whether the player challenged.
func (t *table) challengeFast(boxes []fbox, upv uint8) bool {
	any := false
	for i := range boxes {
		b := &boxes[i]
		b.chal, b.chal1 = 0, false
		// (Another player's challenge is nobody's net.)
		if b.mine && b.hands[0].v0 == 1 && b.lv.chal >= 1 && b.fs.t.Challenge(int(upv), t.liveCount()) {
			b.chal, b.chal1 = b.lv.chal, true
			any = true
		}
	}
	return any
}

// settleChallenge settles a box's challenge on its hand's second card: 2:1
// on a ten-value (AR-10).
func (t *table) settleChallenge(b *fbox, second uint8) {
	if b.chal == 0 {
		return
	}
	n := -b.chal
	if second == 10 {
		n = b.lv.insWin // Pays(half, 2), as insurance
	}
	b.chal = 0
	t.x += n
	b.net0 += n
}

// insuranceFast is the insurance and even-money window (ES-10, ES-11,
// VE-15, VE-16), as in play.
func (t *table) insuranceFast(boxes []fbox, upv uint8) {
	p := t.p
	upAce, emUp := upv == 1, t.fp.emUp[upv&15]
	for i := range boxes {
		b := &boxes[i]
		h := &b.hands[0]
		bj := h.s == 11|stAce
		count := 0.0
		if b.mine {
			count = t.liveCount()
		}
		if bj && emUp && b.fs.t.EvenMoney(int(upv), count) {
			h.em = true
			if b.mine {
				t.x += b.lv.evenMoney
				b.net0 += b.lv.evenMoney
				// Kept on a void only where the engine had paid it: not
				// on padding past the shoe's end, nor after the cut card
				// came out under last_round_void (EG-04), which the
				// engine voids at once, before the offer.
				if !t.d.out() && !(p.LastRoundVoid && t.d.cutOut()) {
					t.emx += b.lv.evenMoney
					t.emw += b.lv.stake
				}
			}
			continue
		}
		if p.Insurance && upAce && b.lv.half >= 1 && (p.InsureBlackjack || !bj) && b.fs.t.Insure(int(upv), bj, count) {
			b.ins = b.lv.half
		}
	}
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
		case h.fromTens:
			return pcSplitTen21
		}
		return pcSplit21
	}
	return fp.total[h.s]
}

// playBoxFast plays a box's hands in order, as playBox.
func (t *table) playBoxFast(b *fbox, upv, col uint8) {
	fp := t.fp
	for k := 0; k < b.n; k++ {
		h := &b.hands[k&(rules.MaxHands-1)]
		if h.n == 1 {
			t.secondCard(b, h, upv, col)
		}
		// A two-card hand decides below 21 (a two-card 21 is a
		// blackjack or stands, AR-12, VE-06, VE-10).
		if !h.done && fp.total[h.s] < 21 && !t.decideFast(b, h, upv, col) {
			k-- // split: the same hand again, waiting for its second card
			continue
		}
		h.pc = fp.classOf(h)
	}
}

// secondCard deals a split hand its second card (again, if it makes a new
// pair of Aces that splits again).
func (t *table) secondCard(b *fbox, h *fhand, upv, col uint8) {
	fp := t.fp
	p := t.p
	if p.ChallengeSplitAce && h.splitAces && !h.challenged {
		// AR-10: a split Ace may be challenged first.
		h.challenged = true
		if b.mine && b.lv.chal >= 1 && (!p.ChallengeAfterFirst || b.chal1) && b.fs.t.Challenge(int(upv), t.liveCount()) {
			b.chal = b.lv.chal
		}
	}
	v := fp.value[t.d.draw()]
	if b.chal != 0 {
		t.settleChallenge(b, v)
	}
	h.v1, h.s, h.n = v, fp.next[h.s][v&15], 2
	if h.splitAces && fp.oneCard {
		h.done = true // ES-09, VE-14: one card each
		// A new pair of Aces may split again (MaySplit: resplit_aces).
		if v == 1 && fp.splitLg[b2i(h != &b.hands[0])&1][1][b.n&15] != 0 && t.resplitFast(b, h, upv, col) {
			t.secondCard(b, h, upv, col)
			return
		}
	}
	// VE-13: an Ace on a split ten-value may be counted 1.
	if p.SplitTenAceChoice && h.fromTens && v == 1 {
		h.tenAce = b.fs.tenAce[col&15]
		if h.tenAce == 1 {
			h.s = 11
		} else {
			h.s = 21
		}
	}
}

// resplitFast asks whether a new pair of Aces that take one card splits
// again (else it stands), and splits it. It reports whether it split.
func (t *table) resplitFast(b *fbox, h *fhand, upv, col uint8) bool {
	fs := b.fs
	m := fs.resplit[col&15]
	if m == dynamic {
		m = uint8(t.fp.resplitMove(fs.t.Play(&fs.resplitView, int(upv), t.fp.resplitLegal, t.liveCount())))
	}
	if Move(m) != Split {
		return false
	}
	t.splitFast(b, h)
	return true
}

// resplitMove is the move a new pair of Aces that take one card makes on
// the strategy's answer m: m where legal, else a stand, or a split where
// it may not stand (the general path's decide).
func (fp *fastPlan) resplitMove(m Move) Move {
	switch {
	case fp.resplitLegal.Has(m):
		return m
	case fp.resplitLegal.Has(Stand):
		return Stand
	}
	return Split
}

// decideFast takes a two-card hand's first decision and plays it out, as
// decide does decision by decision. It reports false after a split.
func (t *table) decideFast(b *fbox, h *fhand, upv, col uint8) bool {
	fp := t.fp
	fs := b.fs
	d := t.d
	if fp.p.DeclareInitialAce && h.decl == 0 && h.tenAce == 0 && (h.v0 == 1 || h.v1 == 1) {
		if !t.declareFast(b, h, upv, col) {
			return false // split
		}
		if h.done {
			return true // surrendered
		}
	}
	kind := fp.kindOf[h.s]
	lg := uint8(0)
	switch {
	case h.tenAce == 1:
		kind = kTenAce1
	case h.tenAce == 11:
		kind = kTenAce11
	case h.decl != 0: // AR-11: declared, by its hard total
		switch {
		case h.v0 == h.v1:
			kind = kDeclAA1 // declared, a pair of Aces splits no more (AR-11)
			if h.decl == 11 {
				kind = kDeclAA11
			}
		case h.decl == 11:
			kind = kDecl11 + h.s - 10
		default:
			kind = kDecl1 + h.s
		}
	case h.v0 == h.v1:
		kind = kPair + h.v0 - 1
		lg = fp.splitLg[b2i(h != &b.hands[0])&1][b2i(h.splitAces)&1][b.n&15]
	}
	sk := b2i(h.split) + b2i(h.splitAces) // unsplit, split, split Aces
	lg |= fp.lgOf[sk&3] & fp.lgMask[h.s]
	m := fs.two[kind&127][lg&7][col&15]
	if m == dynamic {
		m = t.dynamicMove(fs, &fs.twoView[kind], h.s, lg, upv)
	}
	switch Move(m) {
	case Stand:
		h.done = true
	case Hit:
		// Then, with three cards and more, hit or stand (more encodes
		// 21 and bust); d.draw with the position in a register.
		s, n := h.s, h.n
		buf, pos, limit := d.buf, d.pos, d.limit
		for a := uint8(Hit); a == uint8(Hit); {
			if pos >= limit {
				d.pos = pos
				d.refill()
				limit = d.limit
			}
			s = fp.nextCard[s&63][buf[pos]&63]
			pos++
			n++
			a = fs.more[s][col&15]
			if a == dynamic {
				d.pos = pos
				a = t.dynamicMove(fs, &fs.moreView[s&(nStates-1)], s, 0, upv)
			}
		}
		d.pos = pos
		h.s, h.n, h.done = s, n, true
	case Surrender:
		h.surrender, h.done = true, true
	case Double:
		h.doubled, h.done = true, true
		c := d.draw()
		if fp.p.DoubleCardFaceDown { // AR-17: turned after the dealer plays
			t.hiddenTags += t.tag[c]
		}
		h.s = fp.next[h.s][fp.value[c]&15]
		h.n++
	case Split:
		t.splitFast(b, h)
		return false
	}
	return true
}

// splitFast splits a pair: the new hand goes after the box's last (split).
func (t *table) splitFast(b *fbox, h *fhand) {
	fp := t.fp
	v0, v1 := h.v0, h.v1
	aces, tens := v0 == 1, v0 == 10
	b.hands[b.n&(rules.MaxHands-1)] = fhand{s: fp.next[0][v1&15], n: 1, v0: v1, split: true, splitAces: aces, fromTens: tens}
	b.n++
	*h = fhand{s: fp.next[0][v0&15], n: 1, v0: v0, split: true, splitAces: aces, fromTens: tens, challenged: true}
}

// declareFast is AR-11 before a hand with an undeclared Ace acts: it may
// split or surrender, else it declares its Ace, as decide does. It reports
// false after a split.
func (t *table) declareFast(b *fbox, h *fhand, upv, col uint8) bool {
	fp := t.fp
	fs := b.fs
	kind, lg := fp.kindOf[h.s], uint8(0)
	if h.v0 == h.v1 { // a pair of Aces
		kind = kPair
		lg = fp.splitLg[b2i(h != &b.hands[0])&1][b2i(h.splitAces)&1][b.n&15]
	}
	lg |= fp.lgOf[(b2i(h.split)+b2i(h.splitAces))&3] & lgSurrender
	m := fs.pre[kind&63][lg>>1&3][col&15]
	if m == dynamic {
		var legal Legal
		if lg&lgSplit != 0 {
			legal = legal.With(Split)
		}
		if lg&lgSurrender != 0 {
			legal = legal.With(Surrender)
		}
		m = uint8(fs.t.Play(&fs.twoView[kind], int(upv), legal, t.liveCount()))
	}
	switch Move(m) {
	case Split:
		if lg&lgSplit != 0 {
			t.splitFast(b, h)
			return false
		}
	case Surrender:
		if lg&lgSurrender != 0 {
			h.surrender, h.done = true, true
			return true
		}
	}
	v := fs.declare[kind&63][col&15]
	if v == dynamic {
		v = uint8(fs.t.Declare(&fs.twoView[kind], int(upv), t.liveCount()))
	}
	h.decl = v
	h.s &^= stAce // the hard total: the Aces count 1,
	if v == 11 {
		h.s += 10 // or one of them 11 for good
	}
	return true
}

// dynamicMove asks the table for a count-dependent decision on a hand in
// state s shown as view.
func (t *table) dynamicMove(fs *fastStrategy, view *Hand, s, lg, upv uint8) uint8 {
	fp := t.fp
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
	m := fs.t.Play(view, int(upv), legal, t.liveCount())
	if !legal.Has(m) {
		m = Hit
	}
	return uint8(m)
}

// dealerFast plays the dealer's hand from the deck's position as far as
// need (AR-13, AR-14, ES-05, VE-08): his second card where he has none,
// then his rule if he plays in full. It returns his class. The fast path and
// the plain round's splits use it; the plain round inlines its loop.
func (t *table) dealerFast(need, ds uint8, dn int, upv uint8) uint8 {
	fp, d := t.fp, t.d
	if dn == 1 && fp.second[need&3][upv&15] {
		ds, dn = fp.next[ds][fp.value[d.draw()]&15], 2
	}
	if dn == 2 && ds == 11|stAce {
		return dcBlackjack // (draws nothing: draws[21] is false)
	}
	if need == uint8(rules.DealerFull) {
		buf, pos, limit := d.buf, d.pos, d.limit
		for fp.draws[ds] {
			if pos >= limit {
				d.pos = pos
				d.refill()
				limit = d.limit
			}
			ds = fp.dealerNext[ds&63][buf[pos]&63]
			pos++
		}
		d.pos = pos
	}
	return fp.total[ds]
}
