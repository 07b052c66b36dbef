package table

import (
	"fmt"
	"strings"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

// A table dealt from a physical shoe: a casino's dealer
// shuffles real cards, has them cut, burns the profile's cards (AR-07,
// EG-03) and deals; each card is read as it leaves the shoe (a reader, or
// the dealer's keys) and fed to the round, which asks for each card where
// it deals it (engine.Waiter: engine.Round.Waiting says whose it is). The
// table has no random order and no seed: nothing to commit to. What it
// checks is what a shoe can hold: no more of a card than the decks give
// since the shuffle.

// physical is the state of a physical shoe.
type physical struct {
	seen   map[card.Card]int // cards read since the shuffle and not collected back into the shoe
	cards  []card.Card       // the round in play's cards, in the order read
	burned []card.Card       // cards read and burned in the round in play (AR-23 (d))
	acted  int               // the round's decisions when its last card was read (Undo)
	cutAt  int               // the round's card the cut card came out before, counted from 1 (-1: not in this round)
	cutOut bool              // the cut card came out (EG-04)
}

// PhysicalState is a physical shoe in a Snapshot: the cards read since the
// shuffle (by card; those collected back into the shoe are not counted),
// and whether the cut card came out.
type PhysicalState struct {
	Seen   map[card.Card]int `json:"seen"`
	CutOut bool              `json:"cut_out,omitempty"`
}

// NewPhysical returns a table for a profile dealt from a physical shoe:
// every card of a round comes from Feed. The shoe is the profile's decks,
// shuffled, cut and burned by the dealer (nothing here draws).
func NewPhysical(p *rules.Profile) (*Table, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	t := &Table{p: p, round: engine.New(p), seats: make([]string, p.Boxes+1), phys: &physical{}}
	t.newPhysicalShoe()
	return t, nil
}

// Physical reports whether the table is dealt from a physical shoe.
func (t *Table) Physical() bool { return t.phys != nil }

func (t *Table) newPhysicalShoe() {
	t.phys.seen = map[card.Card]int{}
	t.phys.cutOut = false
	t.shoeNo++
	t.shoeStarted = false
	t.lastRound = false
	t.await, t.authorisedBy, t.cutBy = StepNone, "", ""
	if t.ShoeSteps != nil && t.ShoeSteps() { // AR-07, EG-02: the dealer's console records them
		t.await = StepAuthorise
	}
}

// Need reports whom the next card of a physical shoe is for, while the
// round in play waits for one (engine.Need: a box's hand, face down or
// not, or the dealer, Box 0).
func (t *Table) Need() (engine.Need, bool) {
	if t.phys == nil || !t.inRound() {
		return engine.Need{}, false
	}
	return t.round.Waiting()
}

// Feed gives the round in play the card read from the physical shoe. It
// refuses, changing nothing, a card when none is due (no round in play, or
// the round waits for a decision), at a table dealt from a random shoe,
// and a card the shoe cannot hold: one more of it than the decks give since
// the shuffle.
func (t *Table) Feed(c card.Card) error {
	if t.phys == nil {
		return t.refuse("", "the table deals from a shuffled shoe: no card is read into it")
	}
	if !c.Valid() {
		return t.refuse("", "%v is not a card", c)
	}
	if _, ok := t.Need(); !ok {
		if t.inRound() {
			return t.refuse("", "no card is due: the round waits for a decision")
		}
		return t.refuse("", "no card is due: no round is in play")
	}
	if n := t.phys.seen[c]; n >= t.p.Decks {
		return t.refuseBy("AR-01, EG-01, FAM-01, VE-01", "decks", "a shoe of %s holds %d %v; %d came out since the shuffle: %v cannot be the next card", plural(t.p.Decks, "deck"), t.p.Decks, c, n, c)
	}
	r, err := t.replayPhysical(append(t.phys.cards[:len(t.phys.cards):len(t.phys.cards)], c))
	if err != nil {
		return err
	}
	t.round = r
	t.phys.cards = append(t.phys.cards, c)
	t.phys.seen[c]++
	t.phys.acted = len(r.Record().Actions)
	return nil
}

// Undo takes back the last card read in the round in play, before anyone
// acted on it: the round waits for that card again. It returns the card
// taken back. A card that a decision has followed, or the card that ended
// the round, stays. Whether the card decided something, and so is the
// inspector's to take back, is Decided's to say.
func (t *Table) Undo() (card.Card, error) {
	r, err := t.beforeLast()
	if err != nil {
		return 0, err
	}
	n := len(t.phys.cards) - 1
	c := t.phys.cards[n]
	t.round = r
	t.phys.cards = t.phys.cards[:n]
	t.phys.seen[c]--
	return c, nil
}

// beforeLast is the round in play as it stood before its last card was
// read, when that card may be taken back at all: a round in play, and no
// decision since the card.
func (t *Table) beforeLast() (*engine.Round, error) {
	if t.phys == nil {
		return nil, t.refuse("", "the table deals from a shuffled shoe")
	}
	if !t.inRound() || len(t.phys.cards) == 0 {
		return nil, t.refuse("", "no card of a round in play to take back")
	}
	if len(t.round.Record().Actions) != t.phys.acted {
		return nil, t.refuse("", "a decision followed the last card: it stays")
	}
	n := len(t.phys.cards) - 1
	return t.replayPhysical(t.phys.cards[:n:n])
}

// Taken is what the last card read decided, as Decided sees it.
type Taken struct {
	Card card.Card
	// Why says what the card decided ("" when nothing): it was read face
	// down, it ended a hand, it completed the dealer's hand, or something
	// went out after it (a hole card turned, a bet settled).
	Why string
	// Revealed is the dealer's card turned after it, which the players
	// have seen and which stays in the round when the card goes back (0:
	// none).
	Revealed card.Card
	// FaceDown: the card was read face down (the players were not told it).
	FaceDown bool
}

// Decided reports what the last card read in the round in play decided
// (AR-09, AR-23). The dealer's own undo is for a misread card
// that nothing followed and that decided nothing; a card read face down,
// a card that ended a hand (a bust, a 21, a double's or a split Ace's one
// card), a card that completed the dealer's hand, or one after which a
// hole card was turned or a bet settled, is the inspector's to take back.
// It refuses as Undo does a card that cannot be taken back at all.
func (t *Table) Decided() (Taken, error) {
	r0, err := t.beforeLast()
	if err != nil {
		return Taken{}, err
	}
	n := len(t.phys.cards) - 1
	tk := Taken{Card: t.phys.cards[n]}
	need, _ := r0.Waiting()
	tk.FaceDown = need.FaceDown
	var why []string
	if need.FaceDown {
		why = append(why, "it was read face down")
	}
	if need.Box > 0 && t.round.HandOver(need.Box, need.Hand) {
		h := t.round.Hands(need.Box)[need.Hand-1]
		why = append(why, fmt.Sprintf("it %s box %d hand %d (%d)", ended(h), need.Box, need.Hand, h.Total()))
	}
	if next, waits := t.round.Waiting(); need.Box == 0 && !need.FaceDown && t.round.Dealer().Count.N >= 2 && !(waits && next.Box == 0) {
		why = append(why, "it completed the dealer's hand")
	}
	settled := false
	for _, e := range t.round.Events()[len(r0.Events()):] {
		switch e.Kind {
		case engine.EvReveal:
			if r0.Dealer().FaceDown() >= 0 { // still in the round once the card goes back
				tk.Revealed = e.Card
			}
			why = append(why, "the dealer's hole card was turned after it")
		case engine.EvResult:
			if !settled {
				settled = true
				why = append(why, "a bet was settled after it")
			}
		}
	}
	tk.Why = strings.Join(why, "; ")
	return tk, nil
}

// ended says how a card ended a hand.
func ended(h engine.Hand) string {
	switch t := h.Total(); {
	case t > 21:
		return "busted"
	case t == 21:
		return "made 21 on"
	case h.Doubled():
		return "was the double's card of"
	}
	return "ended"
}

// Burn takes a card read from the physical shoe out of play: a card drawn
// out of turn (AR-23 (d)), or the cards of a box dealt too many (AR-23
// (b)) that went by unread. It counts in the shoe (no more of it than the
// decks give) and deals nothing. It is refused between rounds, and like
// Feed for a card the shoe cannot hold.
func (t *Table) Burn(c card.Card) error {
	if t.phys == nil {
		return t.refuse("", "the table deals from a shuffled shoe: no card is read into it")
	}
	if !c.Valid() {
		return t.refuse("", "%v is not a card", c)
	}
	if !t.inRound() {
		return t.refuseBy("AR-23, EG-03", "burn_cards", "a card is burned while a round is dealt")
	}
	if n := t.phys.seen[c]; n >= t.p.Decks {
		return t.refuseBy("AR-01, EG-01, FAM-01, VE-01", "decks", "a shoe of %s holds %d %v; %d came out since the shuffle: %v cannot be burned", plural(t.p.Decks, "deck"), t.p.Decks, c, n, c)
	}
	t.phys.seen[c]++
	t.phys.burned = append(t.phys.burned, c)
	return nil
}

// CutCard notes that the cut card came out of the physical shoe while the
// round in play was dealt: this round is the shoe's last (EG-04), and the
// next deal needs a new shoe (EG-05).
func (t *Table) CutCard() error {
	if t.phys == nil {
		return t.refuse("", "the table deals from a shuffled shoe: its cut card is placed by the server")
	}
	if !t.inRound() {
		return t.refuse("AR-08, EG-04", "the cut card is noted while a round is dealt")
	}
	if t.phys.cutAt >= 0 {
		return t.refuse("AR-08, EG-04", "the cut card is out already")
	}
	// It came out before the next card: the round knows it when that card
	// is drawn (engine.Forced.CutAfter), after everything said so far.
	t.phys.cutAt = len(t.phys.cards) + 1
	t.phys.cutOut = true
	return nil
}

// CutCardOut reports whether the cut card came out of the physical shoe.
func (t *Table) CutCardOut() bool { return t.phys != nil && t.phys.cutOut }

// Cards returns the cards read in the round in play of a physical shoe.
func (t *Table) Cards() []card.Card {
	if t.phys == nil {
		return nil
	}
	return append([]card.Card(nil), t.phys.cards...)
}

// replayPhysical is the round in play played again with these cards: its
// bets and decisions, the cut card where it came out.
func (t *Table) replayPhysical(cards []card.Card) (*engine.Round, error) {
	rec := t.round.Record()
	rec.Cards = cards
	rec.CutAtStart = false
	rec.CutAfter = t.phys.cutAt
	r, err := engine.ReplayPhysical(t.p, rec)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	r.SetAmountStyle(t.style)
	return r, nil
}

// physicalSource starts a physical round: its source has no card yet.
func (t *Table) physicalSource() engine.Source {
	t.phys.cards = t.phys.cards[:0]
	t.phys.burned = t.phys.burned[:0]
	t.phys.acted = 0
	t.phys.cutAt = -1
	return &engine.Forced{CutAfter: -1, Wait: true}
}

// finishPhysical collects a physical round's cards: under the shoe (FAM-03)
// they may come out again, so they no longer count as seen.
func (t *Table) finishPhysical() {
	if t.p.Collected != rules.DiscardTray {
		for _, c := range t.phys.cards {
			t.phys.seen[c]--
		}
		for _, c := range t.phys.burned {
			t.phys.seen[c]--
		}
	}
	t.phys.cards = t.phys.cards[:0]
	t.phys.burned = t.phys.burned[:0]
	if t.phys.cutOut {
		t.lastRound = true
		// A new shoe that waits for its steps is begun at once, as a
		// shuffled one is (drawShoe): they are recorded between rounds
		// (AR-07, EG-02).
		if t.ShoeSteps != nil && t.ShoeSteps() {
			t.newPhysicalShoe()
		}
	}
}
