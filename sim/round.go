package sim

import (
	"math"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

// maxBettors is the bettors one box can hold: its holder and back bettors.
const maxBettors = 1 + rules.MaxBackBets

// hand is one hand of a box in the fast path. The stakes are per bettor of
// the box: 0 the box holder, 1.. the back bettors.
type hand struct {
	c      rules.Count
	c0, c1 card.Card // the first two cards

	split, splitAces, fromTens bool
	doubled, stood, surrender  bool
	aceChoice, challenged      bool
	hidden                     card.Card // a double's card dealt face down, not yet seen (AR-17)

	stake [maxBettors]int64 // main (first hand) or split stake; 0 none
	dbl   [maxBettors]int64 // double stake
	chal  [maxBettors]int64 // challenge stake (AR-10), settled at the second card
	em    [maxBettors]bool  // paid even money (ES-10, VE-16)
}

// box is one box in play.
type box struct {
	hands [rules.MaxHands]hand
	n     int
	mine  bool // the simulated player's box; else another player's
	nb    int  // bettors on the box
	base  [maxBettors]int64
	ins   [maxBettors]int64
	net0  int64 // the holder's net on the box this round
}

// table is one worker's table: the deck, the boxes, the count and the
// rules' precomputed tables. It plays rounds on the fast unchecked path.
type table struct {
	p   *rules.Profile
	cfg *Config
	d   *deck

	strat, other Strategy
	counting     bool
	balanced     bool
	tcEst        bool // a true count other than the exact one (estimate)
	tag          [256]int32
	rc, irc      int32

	boxes [rules.MaxBoxes]box
	nBox  int
	dealer

	// The fast path (fast.go), when the configuration allows it: its
	// tables and boxes.
	fp         *fastPlan
	fb         [rules.MaxBoxes]fbox
	fbPlaying  bool // the layout of fb: the player bets, at this level
	fbLevel    int
	fstart     int   // the round's first card in the deck
	hiddenTags int32 // the tags of AR-17 double cards dealt face down this round

	hand Hand // the strategy's view, reused

	// Tables computed once from the rules (DealerDraws, CanDoubleOn,
	// MustDraw) for undeclared hands.
	dealerDraws [32][2]bool
	canDouble   [32][2]bool
	mustDraw    [32]bool

	in         bool  // wonging: the player is in the game
	shoes      int64 // shuffles so far
	void       bool  // the last round was void
	bankRounds int   // FAM-02: rounds since the bank last passed

	// The round's result.
	x, w        int64    // the player's net and initial stakes
	bx, bw      int64    // the back bets'
	boxWins     [3]int64 // the player's boxes won, pushed, lost
	blackjacks  int64
	playerBoxes int64
	roundHadBJ  bool
	roundCount  float64 // the count when the bets were placed

	// The true count of Config.TrueCount when tcEst (estimate): its
	// rounding and step; tcNum is 52 times the count's scale (2 for half
	// counts), and tcDiv[left+pad] what rc·tcNum is divided by with left
	// cards left: 52 times the estimate of the decks, or for exact decks
	// the cards left, at least 1.
	tcRound       Rounding
	tcNum, tcStep float64
	tcDiv         []float64
}

type dealer struct {
	dc         rules.Count
	up, hole   card.Card
	holeHidden bool
}

func newTable(cfg *Config) *table {
	p := cfg.Profile
	t := &table{p: p, cfg: cfg, strat: cfg.Strategy, other: cfg.OthersStrategy}
	t.d = newDeck(p.Decks, p.ShoeProcedure(), cfg.Continuous)
	t.d.fast = !cfg.exactShoe
	if cfg.Count != nil {
		t.counting = true
		t.balanced = cfg.Count.Balanced
		t.tag = cfg.Count.tagTable()
		if !t.balanced {
			t.irc = int32(cfg.Count.IRCConst + cfg.Count.IRCPerDeck*p.Decks)
		}
		if m := cfg.TrueCount; t.balanced && !m.Exact() {
			t.tcEst, t.tcRound = true, m.Round
			t.tcNum, t.tcStep = 52, 1
			if m.Step == 0.5 {
				t.tcNum, t.tcStep = 104, 0.5
			}
			// (Fewer than none left: the deal in the padding.)
			t.tcDiv = make([]float64, pad+52*p.Decks+1)
			for i := range t.tcDiv {
				left := max(i-pad, 1)
				t.tcDiv[i] = float64(left)
				if m.Decks > 0 {
					t.tcDiv[i] = 52 * m.DecksLeft(left)
				}
			}
		}
	}
	for h := 0; h < 32; h++ {
		for s := 0; s < 2; s++ {
			c := rules.Count{Hard: uint8(h), N: 3, Aces: uint8(s)}
			t.dealerDraws[h][s] = p.DealerDraws(c)
			c.N = 2
			t.canDouble[h][s] = p.CanDoubleOn(c)
		}
		t.mustDraw[h] = p.MustDraw(rules.Count{Hard: uint8(h), N: 3})
	}
	if fastEligible(cfg) {
		t.fp = newFastPlan(cfg) // nil if it cannot
	}
	return t
}

// shuffle starts a new shoe.
func (t *table) shuffle() {
	t.d.prepare()
	t.shoes++
	t.rc = t.irc
	t.in = !t.cfg.Wong.HasIn
	t.bankRounds = 0
}

func (t *table) deal() card.Card {
	c := t.d.draw()
	t.rc += t.tag[c]
	return c
}

// count is the true count (balanced systems) or the running count.
func (t *table) count() float64 {
	if !t.counting {
		return 0
	}
	if t.tcEst {
		return t.estimate(t.rc)
	}
	return t.countOf(t.rc)
}

// countOf is the count of a running count rc with the cards left now,
// exactly: the running count of an unbalanced system, the exact true count
// of a balanced one. (The true count of Config.TrueCount is estimate's; the
// callers choose, so that this stays small enough to be inlined.)
func (t *table) countOf(rc int32) float64 {
	if !t.balanced {
		return float64(rc)
	}
	left := t.d.remaining()
	if left < 1 {
		left = 1
	}
	return float64(rc) * 52 / float64(left)
}

// estimate is the true count of Config.TrueCount (other than the exact
// one) of a running count rc with the cards left now: TrueCount.Of bit for
// bit (TestEstimateIsOf), small enough to be inlined (a call would cost
// the default path a frame in liveCount). rc·52·s / (52·decks), s = 1 or 2
// for half counts, is rc/decks·s correctly rounded as TrueCount.Of's
// quotient is: 52·rc and 52·decks are exact and a power of two scales
// exactly. Rounding half away from zero is Trunc(y ± ½) (math.Round is not
// an intrinsic): y = a/b with b at most 2·52·16 is exactly halfway between
// two integers or 1/2b from it, far more than an ulp.
func (t *table) estimate(rc int32) float64 {
	y := float64(rc) * t.tcNum / t.tcDiv[t.d.remaining()+pad]
	switch t.tcRound {
	case RoundFloor:
		y = math.Floor(y)
	case RoundTruncate:
		y = math.Trunc(y)
	case RoundNearest:
		h := 0.5
		if y < 0 {
			h = -0.5
		}
		y = math.Trunc(y + h)
	}
	return y * t.tcStep
}

func (t *table) stratOf(b *box) Strategy {
	if b.mine {
		return t.strat
	}
	return t.other
}

func (t *table) countFor(b *box) float64 {
	if b.mine && t.counting {
		return t.count()
	}
	return 0
}

// seat lays out the round's boxes and stakes: the player's boxes (unless
// wonged out) and the other players'. It reports whether the player bets.
func (t *table) seat() bool {
	cfg := t.cfg
	count := 0.0
	if t.tcEst {
		count = t.estimate(t.rc)
	} else if t.counting {
		count = t.countOf(t.rc)
	}
	t.roundCount = count
	if t.counting {
		if t.in && cfg.Wong.HasOut && count < cfg.Wong.Out {
			t.in = false
		}
		if !t.in && cfg.Wong.HasIn && count >= cfg.Wong.In {
			t.in = true
		}
	}
	playing := t.in
	if t.fp != nil {
		t.seatFast(playing, count)
		return playing
	}
	t.nBox = 0
	if playing {
		units := int64(1)
		if t.counting && len(cfg.Ramp.Steps) > 0 {
			units = cfg.Ramp.Units(count)
		}
		stake := units * cfg.Unit
		for i := 0; i < cfg.Boxes; i++ {
			b := &t.boxes[t.nBox]
			t.nBox++
			b.mine = true
			b.nb = 1 + cfg.BackBets
			for j := 0; j < b.nb; j++ {
				b.base[j] = stake
			}
		}
	}
	others := cfg.Others
	if !playing && others == 0 {
		others = 1 // the cards go on to the table while the player watches
	}
	for i := 0; i < others; i++ {
		b := &t.boxes[t.nBox]
		t.nBox++
		b.mine = false
		b.nb = 1
		b.base[0] = cfg.Unit
	}
	return playing
}

func (h *hand) clear(nb int) {
	h.c = rules.Count{}
	h.c0, h.c1, h.hidden = 0, 0, 0
	h.split, h.splitAces, h.fromTens = false, false, false
	h.doubled, h.stood, h.surrender = false, false, false
	h.aceChoice, h.challenged = false, false
	for j := 0; j < nb; j++ {
		h.dbl[j] = 0
		h.chal[j] = 0
		h.em[j] = false
	}
}

// round plays one round, on the fast path where the configuration allows
// it (fast.go), else on the general one.
func (t *table) round() {
	if t.fp != nil {
		t.playFast()
	} else {
		t.play()
	}
}

// play plays one round on the general unchecked path and leaves its result
// in t.x, t.w (the player) and t.bx, t.bw (the back bets). It mirrors
// engine.Round's order of play card for card: TestAgreesWithEngine holds it
// to that.
func (t *table) play() {
	p := t.p
	d := t.d
	start := d.pos
	t.x, t.bx = 0, 0 // nets, kept unless the round is void
	t.w, t.bw = 0, 0
	t.roundHadBJ = false

	// First card to each box, then the dealer's up card (AR-09, ES-12, VE-05).
	for i := 0; i < t.nBox; i++ {
		b := &t.boxes[i]
		b.n = 1
		b.net0 = 0
		h := &b.hands[0]
		h.clear(b.nb)
		for j := 0; j < b.nb; j++ {
			h.stake[j] = b.base[j]
			b.ins[j] = 0
			if b.mine {
				if j == 0 {
					t.w += b.base[j]
				} else {
					t.bw += b.base[j]
				}
			}
		}
		c := t.deal()
		h.c = h.c.Add(c)
		h.c0 = c
	}
	up := t.deal()
	t.up, t.hole, t.holeHidden = up, 0, false
	t.dc = rules.Count{}.Add(up)
	upv := up.Value()
	upAce, upTen := up.IsAce(), up.IsTen()

	// AR-10: the challenge on a first-card Ace, before the second card.
	challenged := false
	if p.Challenge {
		for i := 0; i < t.nBox; i++ {
			b := &t.boxes[i]
			h := &b.hands[0]
			if !h.c0.IsAce() {
				continue
			}
			s := t.stratOf(b)
			for j := 0; j < b.nb; j++ {
				if half := h.stake[j] / 2; half >= 1 && s.Challenge(upv, t.countFor(b)) {
					h.chal[j] = half
					challenged = true
				}
			}
		}
	}

	// Second cards; the hole card where the profile has one.
	for i := 0; i < t.nBox; i++ {
		b := &t.boxes[i]
		h := &b.hands[0]
		c := t.deal()
		h.c = h.c.Add(c)
		h.c1 = c
		if challenged {
			t.settleChallenges(b, h, c)
		}
	}
	if p.HoleCard != rules.NoHole {
		c := t.d.draw() // unseen until the dealer turns it
		t.hole, t.holeHidden = c, true
		t.dc = t.dc.Add(c)
	}

	// Insurance and even money (ES-10, ES-11, VE-15, VE-16).
	emUp := p.EvenMoney == rules.EvenMoneyAce && upAce || p.EvenMoney == rules.EvenMoneyAceTen && (upAce || upTen)
	if p.Insurance && upAce || emUp {
		for i := 0; i < t.nBox; i++ {
			b := &t.boxes[i]
			h := &b.hands[0]
			bj := h.c.TwoCard21()
			s := t.stratOf(b)
			for j := 0; j < b.nb; j++ {
				stake := h.stake[j]
				if bj && emUp && s.EvenMoney(upv, t.countFor(b)) {
					h.em[j] = true
					t.credit(b, j, p.Pays(stake, 1))
					continue
				}
				if p.Insurance && upAce && stake/2 >= 1 && (p.InsureBlackjack || !bj) && s.Insure(upv, bj, t.countFor(b)) {
					b.ins[j] = stake / 2
				}
			}
		}
	}

	// The peek (US hole card): a dealer blackjack ends the round.
	if p.HoleCard == rules.Peek && (upAce || upTen) && t.dc.TwoCard21() {
		t.reveal()
	} else {
		for i := 0; i < t.nBox; i++ {
			t.playBox(&t.boxes[i], upv)
		}
		t.playDealer(upAce, upTen)
	}

	// Settlement (AR-15, AR-16, ES-06, ES-07, VE-09, VE-10, PON-01, PON-02).
	dh := rules.DealerHand{Count: t.dc}
	dealerBJ := t.dc.TwoCard21()
	for i := 0; i < t.nBox; i++ {
		b := &t.boxes[i]
		for k := 0; k < b.n; k++ {
			h := &b.hands[k]
			if h.hidden != 0 { // AR-17: the double's card is turned now
				t.rc += t.tag[h.hidden]
			}
			o := p.Settle(rules.PlayerHand{Count: h.c, Split: h.split, Surrendered: h.surrender}, dh)
			for j := 0; j < b.nb; j++ {
				s := h.stake[j]
				if s == 0 || h.em[j] {
					continue
				}
				if !o.OriginalOnly || k == 0 {
					t.credit(b, j, p.Net(s, o))
				}
				if ds := h.dbl[j]; ds > 0 && !o.OriginalOnly {
					if p.DoubleForLess {
						ds = min(ds, s) // VE-19
					}
					t.credit(b, j, p.Net(ds, o))
				}
			}
		}
		for j := 0; j < b.nb; j++ {
			if s := b.ins[j]; s > 0 {
				if dealerBJ {
					t.credit(b, j, p.Pays(s, 2))
				} else {
					t.credit(b, j, -s)
				}
			}
		}
		if h0 := &b.hands[0]; b.n == 1 && h0.c.TwoCard21() {
			t.roundHadBJ = true
		}
	}

	t.endRound(start)
}

// endRound ends a round whose cards began at start: a void round (AR-08:
// out of cards; EG-04: the house stops when the cut card comes out), the
// player's box results, and between rounds: collect (FAM-03), reshuffle
// after the cut card (EG-05), after a void for want of cards (AR-08), or
// when the bank passes with the cards collected face down (FAM-02, FAM-03).
func (t *table) endRound(start int) {
	p := t.p
	d := t.d
	if d.out() || p.LastRoundVoid && d.cutOut() {
		t.x, t.bx = 0, 0
		t.w, t.bw = 0, 0
		t.void = true
	} else {
		t.void = false
		if t.fp != nil {
			for i := 0; i < t.nBox; i++ {
				if b := &t.fb[i]; b.mine {
					t.tally(b.bj, b.net0)
				}
			}
		} else {
			for i := 0; i < t.nBox; i++ {
				if b := &t.boxes[i]; b.mine {
					t.tally(b.n == 1 && b.hands[0].c.TwoCard21(), b.net0)
				}
			}
		}
	}
	proc := d.proc
	if proc.Collected != shoe.DiscardTray && !d.out() && !d.csm {
		d.collect(d.pos - start)
	}
	t.bankRounds++
	switch {
	case d.out(), d.cutOut(), d.csm:
		t.shuffle()
	case proc.Collected == shoe.UnderFaceDown && t.bankPasses():
		t.shuffle()
	}
}

// credit adds a net to bettor j of a box: the player's, his back bets', or
// nobody's (another player's box).
func (t *table) credit(b *box, j int, n int64) {
	if !b.mine {
		return
	}
	if j == 0 {
		t.x += n
		b.net0 += n
	} else {
		t.bx += n
	}
}

// tally counts a player box's result for the win, push, loss and
// blackjack rates: by the box holder's net on the box. Without a branch:
// a round's result is as unpredictable as the cards.
func (t *table) tally(blackjack bool, net0 int64) {
	t.playerBoxes++
	t.blackjacks += int64(b2i(blackjack))
	t.boxWins[1+b2i(net0 < 0)-b2i(net0 > 0)]++ // won, pushed, lost
}

// b2i is 1 for true: the compiler makes it a SETcc, not a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bankPasses applies FAM-02 for a shoe whose cards are collected face down:
// the bank passes to a player who made a blackjack, or after bank_rounds
// rounds; the cards are then reshuffled (FAM-03).
func (t *table) bankPasses() bool {
	if !t.p.BankRotates {
		return false
	}
	return t.roundHadBJ || t.p.BankRounds > 0 && t.bankRounds >= t.p.BankRounds
}

// settleChallenges settles the challenges on a hand when its second card
// comes: 2:1 if it is ten-value (AR-10).
func (t *table) settleChallenges(b *box, h *hand, second card.Card) {
	for j := 0; j < b.nb; j++ {
		if s := h.chal[j]; s > 0 {
			h.chal[j] = 0
			if second.IsTen() {
				t.credit(b, j, t.p.Pays(s, 2))
			} else {
				t.credit(b, j, -s)
			}
		}
	}
}

// reveal turns the hole card.
func (t *table) reveal() {
	if t.holeHidden {
		t.rc += t.tag[t.hole]
		t.holeHidden = false
	}
}

func (t *table) needsDecision(h *hand) bool {
	p := t.p
	switch {
	case h.stood, h.doubled, h.surrender:
		return false
	case h.splitAces && !p.HitSplitAces && h.c.N >= 2:
		return false // ES-09, VE-14: one card each
	}
	tot := h.c.Total()
	if tot > 21 {
		return false
	}
	if tot == 21 {
		return !p.StandOn21 && !h.c.TwoCard21() // AR-12, VE-06, VE-10
	}
	return true
}

// playBox plays a box's hands in order, splits dealing on the way.
func (t *table) playBox(b *box, upv int) {
	p := t.p
	s := t.stratOf(b)
	for k := 0; k < b.n; k++ {
		h := &b.hands[k]
		if h.c.N == 1 {
			// A split hand waits for its second card; AR-10: a split
			// Ace may be challenged first.
			challenged := false
			if p.ChallengeSplitAce && h.splitAces && !h.challenged {
				h.challenged = true
				for j := 0; j < b.nb; j++ {
					if half := h.stake[j] / 2; half >= 1 && s.Challenge(upv, t.countFor(b)) {
						h.chal[j] = half
						challenged = true
					}
				}
			}
			c := t.deal()
			h.c = h.c.Add(c)
			h.c1 = c
			if challenged {
				t.settleChallenges(b, h, c)
			}
		}
		// VE-13: an Ace on a split ten-value may be counted 1.
		if p.SplitTenAceChoice && h.fromTens && !h.aceChoice && h.c.N == 2 && h.c1.IsAce() && h.c.Declared == 0 {
			h.aceChoice = true
			t.view(b, h)
			h.c = h.c.Declare(s.Declare(&t.hand, upv, t.countFor(b)))
		}
		for t.needsDecision(h) {
			if !t.decide(b, k, s, upv) {
				k-- // split: the same hand again, waiting for its second card
				break
			}
		}
	}
}

// view fills the strategy's view of a hand.
func (t *table) view(b *box, h *hand) {
	v := &t.hand
	v.Count = h.c
	v.Pair = 0
	if h.c.N == 2 && h.c0.Value() == h.c1.Value() {
		v.Pair = h.c0.Value()
	}
	v.Split = h.split
	v.Hands = b.n
	v.TenAce = h.aceChoice && h.c.N == 2 && t.p.SplitTenAceChoice
}

// decide asks the strategy for one decision and applies it. It reports
// false after a split.
func (t *table) decide(b *box, k int, s Strategy, upv int) bool {
	p := t.p
	h := &b.hands[k]
	var legal Legal
	if h.c.N == 2 {
		if h.c0.Value() == h.c1.Value() && b.n < p.MaxHands && !(h.splitAces && !p.ResplitAces) {
			legal = legal.With(Split) // AR-18, ES-09, VE-12
		}
		if p.Surrender != rules.NoSurrender && !h.split {
			legal = legal.With(Surrender)
		}
	}
	mustDeclare := p.DeclareInitialAce && h.c.Declared == 0 && h.c.N == 2 && (h.c0.IsAce() || h.c1.IsAce())
	if !mustDeclare {
		legal = legal.With(Hit)
		if !t.mustDrawOn(h.c) {
			legal = legal.With(Stand)
		}
		if h.c.N == 2 && !(h.split && !p.DoubleAfterSplit) && !(h.splitAces && !p.HitSplitAces) && t.canDoubleOn(h.c) {
			legal = legal.With(Double)
		}
	}
	t.view(b, h)
	count := t.countFor(b)
	m := s.Play(&t.hand, upv, legal, count)
	if !legal.Has(m) {
		if mustDeclare {
			// AR-11: declare the Ace before acting.
			h.c = h.c.Declare(s.Declare(&t.hand, upv, count))
			return true
		}
		m = Hit // a strategy's illegal answer: the only move always allowed
	}
	switch m {
	case Hit:
		c := t.deal()
		h.c = h.c.Add(c)
	case Stand:
		h.stood = true
	case Surrender:
		h.surrender = true
	case Double:
		h.doubled = true
		h.dbl[0] = h.stake[0]
		for j := 1; j < b.nb; j++ {
			if t.cfg.BackFollow && h.stake[j] > 0 && !h.em[j] { // VE-11
				h.dbl[j] = h.stake[j]
			}
		}
		c := t.d.draw()
		if p.DoubleCardFaceDown { // AR-17: turned after the dealer plays
			h.hidden = c
		} else {
			t.rc += t.tag[c]
		}
		h.c = h.c.Add(c)
	case Split:
		t.split(b, k)
		return false
	}
	return true
}

func (t *table) mustDrawOn(c rules.Count) bool {
	if t.p.MustDrawAtMost == 0 {
		return false
	}
	if c.Declared != 0 {
		return t.p.MustDraw(c)
	}
	return t.mustDraw[c.Total()&31]
}

func (t *table) canDoubleOn(c rules.Count) bool {
	if c.Declared != 0 {
		return t.p.CanDoubleOn(c)
	}
	return t.canDouble[c.Hard&31][min(c.Aces, 1)]
}

// split splits hand k: the new hand goes after the box's last hand, and
// each back bettor matches the split or stays on the first hand (VE-12).
func (t *table) split(b *box, k int) {
	h := &b.hands[k]
	c1, c2 := h.c0, h.c1
	aces, tens := c1.IsAce(), c1.IsTen()
	nh := &b.hands[b.n]
	b.n++
	nh.clear(b.nb)
	nh.stake[0] = h.stake[0]
	for j := 1; j < b.nb; j++ {
		nh.stake[j] = 0
		if t.cfg.BackFollow && h.stake[j] > 0 {
			nh.stake[j] = h.stake[j]
		}
	}
	stakes := h.stake
	h.clear(b.nb)
	h.stake = stakes
	h.c = rules.Count{}.Add(c1)
	h.c0 = c1
	h.split, h.splitAces, h.fromTens, h.challenged = true, aces, tens, true
	nh.c = rules.Count{}.Add(c2)
	nh.c0 = c2
	nh.split, nh.splitAces, nh.fromTens = true, aces, tens
}

// dealerNeed says how far the dealer must play: 2 to his rule when a live
// hand remains; 1 only to complete two cards, to settle blackjacks,
// insurance or a late surrender; 0 not at all (AR-14).
func (t *table) dealerNeed() int {
	p := t.p
	need := 0
	for i := 0; i < t.nBox; i++ {
		b := &t.boxes[i]
		for j := 0; j < b.nb; j++ {
			if b.ins[j] > 0 {
				need = 1
			}
		}
		for k := 0; k < b.n; k++ {
			h := &b.hands[k]
			live := false
			for j := 0; j < b.nb; j++ {
				if h.stake[j] > 0 && !h.em[j] {
					live = true
					break
				}
			}
			if !live {
				continue
			}
			switch {
			case h.c.Total() > 21:
			case h.surrender:
				if p.Surrender == rules.LateSurrender {
					need = max(need, 1)
				}
			case p.ThreeSevens && h.c.N == 3 && h.c.Sevens == 3:
			case p.IsBlackjack(rules.PlayerHand{Count: h.c, Split: h.split}):
				need = max(need, 1)
			default:
				return 2
			}
		}
	}
	return need
}

// playDealer plays the dealer's hand after the boxes (AR-13, AR-14, ES-05,
// VE-08).
func (t *table) playDealer(upAce, upTen bool) {
	need := t.dealerNeed()
	t.reveal()
	if need == 0 {
		return
	}
	if t.dc.N == 1 {
		if need == 1 && !upAce && !upTen {
			return // no blackjack is possible: nothing to settle by a card
		}
		t.dc = t.dc.Add(t.deal())
	}
	if need < 2 || t.dc.TwoCard21() {
		return
	}
	for t.dealerDraws[t.dc.Hard&31][min(t.dc.Aces, 1)] {
		t.dc = t.dc.Add(t.deal())
	}
}

// bucket is the count bucket of a round for EV by count: floor(count)
// clamped to ±countRange.
func bucket(count float64) int {
	f := math.Floor(count)
	if f < -countRange {
		f = -countRange
	}
	if f > countRange {
		f = countRange
	}
	return int(f) + countRange
}

const countRange = 10
