package sim

import (
	"math"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
	"sabot/shoe"
)

// box is one box of a round on the general path (general.go): whose it
// is, its bettors and their stake, and what the holder made of it.
type box struct {
	mine  bool  // the simulated player's box; else another player's
	nb    int   // bettors on the box: its holder and his back bets
	stake int64 // each bettor's stake
	net0  int64 // the holder's net on the box this round
	bj    bool  // the box's hand is a blackjack (an unsplit two-card 21)
}

// table is one worker's table: the deck, the boxes, the count, and the
// path its rounds take: the fast path's tables (fast.go) or the engine's
// round (general.go).
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

	// The general path (general.go): the engine's round, the actions it
	// lists, the events counted so far.
	gr   *engine.Round
	acts []engine.Action
	seen int

	// The fast path (fast.go), when the configuration allows it: its
	// tables and boxes.
	fp         *fastPlan
	plain      *plainPlan // the plain round (plain.go), when the set-up allows it
	fb         [rules.MaxBoxes]fbox
	fbPlaying  bool // the layout of fb: the player bets, at this level
	fbLevel    int
	fstart     int   // the round's first card in the deck
	hiddenTags int32 // the tags of AR-17 double cards dealt face down this round

	hand Hand // the strategy's view, reused

	in    bool  // wonging: the player is in the game
	shoes int64 // shuffles so far
	// Shoes dealt to their end and the cards dealt from them (the
	// penetration reached), since the chunk began.
	shoesDealt, shoeCards int64
	void                  bool // the last round was void
	bankRounds            int  // FAM-02: rounds since the bank last passed

	// The round's result.
	x, w   int64 // the player's net and initial stakes
	bx, bw int64 // the back bets'
	// The even money paid this round, net and stake, the player's and the
	// back bets': final, it stays paid if the round is then void (ES-10,
	// VE-16; rules.CardsOut).
	emx, emw, embx, embw int64
	boxWins              [3]int64 // the player's boxes won, pushed, lost
	blackjacks           int64
	playerBoxes          int64
	roundHadBJ           bool
	roundCount           float64 // the count when the bets were placed

	// The true count of Config.TrueCount when tcEst (estimate): its
	// rounding and step; tcNum is 52 times the count's scale (2 for half
	// counts), and tcDiv[left+pad] what rc·tcNum is divided by with left
	// cards left: 52 times the estimate of the decks, or for exact decks
	// the cards left, at least 1.
	tcRound       Rounding
	tcNum, tcStep float64
	tcDiv         []float64
}

// dealer is the dealer's up and hole card on the fast path.
type dealer struct {
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
	if fastEligible(cfg) {
		t.fp = newFastPlan(cfg) // nil if it cannot
	}
	if t.fp != nil {
		t.plain = newPlainPlan(cfg, t.fp)
	}
	if t.fp == nil {
		t.newGeneral()
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
			b.mine, b.nb, b.stake = true, 1+cfg.BackBets, stake
		}
	}
	others := cfg.Others
	if !playing && others == 0 {
		others = 1 // the cards go on to the table while the player watches
	}
	for i := 0; i < others; i++ {
		b := &t.boxes[t.nBox]
		t.nBox++
		b.mine, b.nb, b.stake = false, 1, cfg.Unit
	}
	return playing
}

// round plays one round, on the fast path where the configuration allows
// it (fast.go), else on the general one (general.go).
func (t *table) round() {
	if t.fp != nil {
		t.playFast()
	} else {
		t.play()
	}
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
		t.x, t.bx = t.emx, t.embx
		t.w, t.bw = t.emw, t.embw
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
					t.tally(b.bj, b.net0)
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
	case d.csm:
		t.shuffle()
	case d.out(), d.cutOut():
		t.endShoe()
	case proc.Collected == shoe.UnderFaceDown && t.bankPasses():
		t.endShoe()
	}
}

// endShoe counts the cards dealt from the shoe, and shuffles.
func (t *table) endShoe() {
	t.shoesDealt++
	t.shoeCards += int64(t.d.dealt())
	t.shuffle()
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
