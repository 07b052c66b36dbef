package table

import (
	"fmt"

	"sabot/card"
	"sabot/engine"
	"sabot/rules"
)

// A table dealt from a physical shoe (issue 13): a casino's dealer
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
		return t.refuse("", "a shoe of %s holds %d %v; %d came out since the shuffle: %v cannot be the next card", plural(t.p.Decks, "deck"), t.p.Decks, c, n, c)
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
// the round, stays.
func (t *Table) Undo() (card.Card, error) {
	if t.phys == nil {
		return 0, t.refuse("", "the table deals from a shuffled shoe")
	}
	if !t.inRound() || len(t.phys.cards) == 0 {
		return 0, t.refuse("", "no card of a round in play to take back")
	}
	if len(t.round.Record().Actions) != t.phys.acted {
		return 0, t.refuse("", "a decision followed the last card: it stays")
	}
	n := len(t.phys.cards) - 1
	r, err := t.replayPhysical(t.phys.cards[:n:n])
	if err != nil {
		return 0, err
	}
	c := t.phys.cards[n]
	t.round = r
	t.phys.cards = t.phys.cards[:n]
	t.phys.seen[c]--
	return c, nil
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
		return t.refuse("AR-23", "a card is burned while a round is dealt")
	}
	if n := t.phys.seen[c]; n >= t.p.Decks {
		return t.refuse("", "a shoe of %s holds %d %v; %d came out since the shuffle: %v cannot be burned", plural(t.p.Decks, "deck"), t.p.Decks, c, n, c)
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
	}
}
