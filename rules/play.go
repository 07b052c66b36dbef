package rules

// The rules of the play that the engine, the analysis and both of the
// simulator's paths ask: who may split and how often, who may double after
// a split and on split Aces, and how far the dealer must play. Each is
// written here once; the others call it (the simulator's fast path fills
// its tables from it once per run).

import "sabot/money"

// HandPos is a player's hand as the rules on splitting and doubling read
// it: its cards, whether it was made by splitting, and its box's hands.
type HandPos struct {
	Count     Count
	Pair      bool // its first two cards are of equal value (K-10 too: AR-18, VE-12)
	Split     bool // it was made by splitting
	SplitAces bool // it was made by splitting Aces
	Hands     int  // the hands its box holds now
	Index     int  // its place in the box, 0 the first (resplit_hands: VE-12)
}

// Bar is the rule that forbids a split, a double, a surrender or a bet,
// or NoBar (the bars on betting and surrender: bet.go).
type Bar uint8

// The bars.
const (
	NoBar Bar = iota
	// BarCards: only a hand's first two cards split or double (AR-17,
	// AR-18, ES-08, ES-09, VE-11, VE-12).
	BarCards
	// BarPair: a split needs two cards of equal value (AR-18, ES-09, VE-12).
	BarPair
	// BarHands: the box holds max_hands hands (AR-18, ES-09, VE-12).
	BarHands
	// BarResplitAces: split Aces are not split again (resplit_aces: AR-19,
	// ES-09, VE-14).
	BarResplitAces
	// BarAfterSplit: no double after a split (double_after_split: AR-17,
	// ES-08, VE-13).
	BarAfterSplit
	// BarSplitAces: split Aces take one card each (hit_split_aces: AR-19,
	// ES-09, VE-14).
	BarSplitAces
	// BarTotal: double_on does not allow the hand's total (AR-17, ES-08,
	// VE-11).
	BarTotal
	// BarDeclared: the pair's Aces have been declared, and the declaration
	// «será irrevocable hasta la completa definición del pase» (AR-11): a
	// split would unmake the total declared.
	BarDeclared
	// BarResplitHand: under resplit_hands=first only the box's first
	// hand, dealt the third card, splits again (VE-12).
	BarResplitHand
)

// SplitBar says what forbids the hand to split now, or NoBar: a split
// takes the first two cards of equal value, while the box holds fewer than
// max_hands hands, under resplit_hands=first only by the box's first hand,
// and split Aces split again only under resplit_aces (AR-18, AR-19, ES-09,
// VE-12, VE-14). A pair of Aces declared 1 or 11 is
// not split (AR-11): the player splits before he declares, and each split
// hand declares its own Ace.
func (p *Profile) SplitBar(h HandPos) Bar {
	switch {
	case h.Count.N != 2:
		return BarCards
	case !h.Pair:
		return BarPair
	case h.Hands >= p.MaxHands:
		return BarHands
	case h.Index > 0 && p.ResplitHands == ResplitFirst:
		return BarResplitHand
	case h.SplitAces && !p.ResplitAces:
		return BarResplitAces
	case h.Count.Declared != 0:
		return BarDeclared
	}
	return NoBar
}

// MaySplit reports whether the hand may split now (SplitBar).
func (p *Profile) MaySplit(h HandPos) bool { return p.SplitBar(h) == NoBar }

// OneCard reports whether the hand is of split Aces that have their second
// card and take no more: it may neither hit nor double, only stand or, a
// new pair of Aces, split again where MaySplit allows (ES-09, VE-14;
// hit_split_aces lets them draw, AR-19).
func (p *Profile) OneCard(h HandPos) bool {
	return h.SplitAces && !p.HitSplitAces && h.Count.N >= 2
}

// DoubleBar says what forbids the hand to double now, or NoBar: a double
// takes the first two cards, of a total double_on allows (CanDoubleOn),
// after a split only under double_after_split, and not on split Aces that
// take one card (AR-17, AR-19, ES-08, ES-09, VE-11, VE-13, VE-14).
func (p *Profile) DoubleBar(h HandPos) Bar {
	switch {
	case h.Count.N != 2:
		return BarCards
	case h.Split && !p.DoubleAfterSplit:
		return BarAfterSplit
	case p.OneCard(h):
		return BarSplitAces
	case !p.CanDoubleOn(h.Count):
		return BarTotal
	}
	return NoBar
}

// MayDouble reports whether the hand may double now (DoubleBar).
func (p *Profile) MayDouble(h HandPos) bool { return p.DoubleBar(h) == NoBar }

// ChallengeStake is what the challenge on a hand's stake stakes (AR-10):
// «otra apuesta igual a la mitad de la postura original», exactly half.
// An odd stake (in minor units) has no half to stake: ok is false, and the
// challenge is refused rather than staked at a rounded half.
func ChallengeStake(stake money.Amount) (half money.Amount, ok bool) {
	if stake < 2 || stake%2 != 0 {
		return 0, false
	}
	return stake / 2, true
}

// DealerPlay is how far the dealer must play his hand after the boxes
// (AR-14): no further than the bets still to settle need.
type DealerPlay uint8

// How far the dealer plays; a larger value plays further.
const (
	// DealerStands: nothing to settle by his cards (every hand bust, or
	// settled): he draws nothing; a hole card is still turned.
	DealerStands DealerPlay = iota
	// DealerTwoCards: only blackjacks, insurance or a late surrender to
	// settle, which his first two cards decide: without a hole card he
	// takes his second card where it can make a blackjack (an Ace or a
	// ten-value up), and draws no further.
	DealerTwoCards
	// DealerFull: a live hand remains: he plays to his rule (AR-13,
	// ES-05, VE-08).
	DealerFull
)

// DealerNeed is how far the dealer must play for one player hand still
// unsettled (AR-14): none for a bust, a surrender (but a late one, which a
// dealer blackjack changes: DealerTwoCards) or three sevens (PON-02, paid
// whatever he holds); two cards for a blackjack; his full hand for any
// other. An insurance bet needs DealerTwoCards. The round's need is the
// largest of its hands' and bets', from DealerFloor. Where the dealer
// always completes his hand (dealer_plays=always: ES-05, VE-08) every hand
// needs it: AR-14 is the Argentine text's.
func (p *Profile) DealerNeed(h PlayerHand) DealerPlay {
	c := h.Count
	switch {
	case p.DealerPlays == PlaysAlways:
		return DealerFull
	case c.Bust():
		return DealerStands
	case p.DealerPlays == PlaysUnlessAllBust: // AR-14's letter: only bust hands spare his cards
		return DealerFull
	case h.Surrendered:
		if p.Surrender == LateSurrender {
			return DealerTwoCards
		}
		return DealerStands
	case p.ThreeSevens && c.N == 3 && c.Sevens == 3:
		return DealerStands
	case p.IsBlackjack(h):
		return DealerTwoCards
	}
	return DealerFull
}

// DealerFloor is how far the dealer plays whatever the bets left need: his
// full hand where he always completes it (dealer_plays=always), even when
// no bet is left to settle, every hand bust or every blackjack paid even
// money (VE-08: «deve portare a termine il suo, applicando
// obbligatoriamente “la regola del banco”»; ES-05); else nothing (AR-14).
func (p *Profile) DealerFloor() DealerPlay {
	if p.DealerPlays == PlaysAlways {
		return DealerFull
	}
	return DealerStands
}

// DealerTakes reports whether the dealer, who must play as far as need
// says and holds d, takes another card (AR-13, AR-14, ES-05, VE-08): his
// second card where he has one only (no hole card, ES-12, VE-05) if he
// plays in full or it can make a blackjack; beyond two cards only if he
// plays in full and his rule draws (DealerDraws).
func (p *Profile) DealerTakes(need DealerPlay, d Count) bool {
	if d.N >= 2 {
		return need == DealerFull && p.DealerDraws(d)
	}
	// His up card alone: the second card where he plays in full, or
	// where it can make a blackjack (an Ace or a ten-value up).
	return need == DealerFull || need == DealerTwoCards && (d.Aces > 0 || d.Hard == 10)
}
