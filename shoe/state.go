package shoe

import (
	"errors"
	"fmt"
	mrand "math/rand/v2"

	"sabot/card"
)

// ErrState is returned, wrapped, when a State does not restore: it is not a
// state a shoe can be in.
var ErrState = errors.New("invalid shoe state")

// State is everything that determines what a shoe does next: its cards and
// position, the cut card, the burned and removed cards, where played cards
// go (FAM-03), its counters, and the state of its ChaCha8 source, so that a
// restored shoe deals, collects and reshuffles exactly as the original
// would. It round-trips through encoding/json: cards are written as their
// codes ("AS", "TD"), the source as base64 of its MarshalBinary form.
//
// Positions are indexes into Cards, as in the shoe: Cards[Pos:] are still
// in the shoe, next first. A negative Cut or CollectedAt means none (a shoe
// that moved its cards forward may hold any negative value there, and
// behaves as with -1).
type State struct {
	Decks       int         `json:"decks"`  // 0 for a forced shoe
	Forced      bool        `json:"forced"` // a forced card order: no source, never shuffles
	Cards       []card.Card `json:"cards"`
	Pos         int         `json:"pos"`
	Cut         int         `json:"cut"` // index of the first card behind the cut card; -1 none
	CutOut      bool        `json:"cut_out"`
	CutAt       int         `json:"cut_at"` // where the last cut was made (AR-07)
	Burned      []card.Card `json:"burned"`
	Removed     []card.Card `json:"removed"`
	Collected   Collected   `json:"collected"`    // FAM-03: 0 discard tray, 1 under face up, 2 under face down
	CollectedAt int         `json:"collected_at"` // index of the first collected card still face up; -1 none
	Reshuffles  int         `json:"reshuffles"`
	RNG         []byte      `json:"rng,omitempty"` // the ChaCha8 source's MarshalBinary; empty for a forced shoe
}

// State returns the shoe's state. The State shares nothing with the shoe.
func (s *Shoe) State() State {
	st := State{
		Decks:       s.decks,
		Forced:      s.forced,
		Cards:       append([]card.Card{}, s.cards...),
		Pos:         s.pos,
		Cut:         s.cut,
		CutOut:      s.cutOut,
		CutAt:       s.cutAt,
		Burned:      append([]card.Card{}, s.burned...),
		Removed:     append([]card.Card{}, s.removed...),
		Collected:   s.collected,
		CollectedAt: s.collectedAt,
		Reshuffles:  s.reshuffles,
	}
	if s.src != nil {
		b, err := s.src.MarshalBinary()
		if err != nil { // ChaCha8.MarshalBinary never fails
			panic("shoe: ChaCha8 state: " + err.Error())
		}
		st.RNG = b
	}
	return st
}

// Restore returns the shoe whose State is st. It refuses, with an error
// wrapping ErrState (or ErrComposition for a shoe whose cards are not N
// decks, EG-01), a state no shoe can be in: positions out of range, cards
// that do not match the decks, a missing or bad source.
func Restore(st State) (*Shoe, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrState, fmt.Sprintf(format, a...))
	}
	n := len(st.Cards)
	switch {
	case st.Forced && st.Decks != 0:
		return nil, bad("a forced shoe has no decks, got %d", st.Decks)
	case st.Forced && len(st.RNG) != 0:
		return nil, bad("a forced shoe has no random source")
	case !st.Forced && st.Decks < 1:
		return nil, bad("%d decks", st.Decks)
	case !st.Forced && len(st.RNG) == 0:
		return nil, bad("no random source")
	case st.Pos < 0 || st.Pos > n:
		return nil, bad("position %d out of range 0 to %d", st.Pos, n)
	case st.Cut >= n:
		return nil, bad("cut card at %d behind the last of %d cards", st.Cut, n)
	case st.CutOut && st.Cut >= st.Pos:
		return nil, bad("the cut card at %d is out but the position is %d", st.Cut, st.Pos)
	case st.CollectedAt >= n:
		return nil, bad("first face-up collected card at %d behind the last of %d cards", st.CollectedAt, n)
	case st.Collected > UnderFaceDown:
		return nil, bad("unknown collection mode %d", st.Collected)
	case st.CutAt < 0:
		return nil, bad("cut at %d", st.CutAt)
	case st.Reshuffles < 0:
		return nil, bad("%d reshuffles", st.Reshuffles)
	}
	for _, cs := range [][]card.Card{st.Cards, st.Burned, st.Removed} {
		for _, c := range cs {
			if !c.Valid() {
				return nil, bad("invalid card %d", uint8(c))
			}
		}
	}
	if !st.Forced {
		if err := checkCards(st); err != nil {
			return nil, err
		}
	}
	s := &Shoe{
		decks:       st.Decks,
		forced:      st.Forced,
		cards:       append(make([]card.Card, 0, max(n, 52*st.Decks)), st.Cards...),
		pos:         st.Pos,
		cut:         st.Cut,
		cutOut:      st.CutOut,
		cutAt:       st.CutAt,
		burned:      append([]card.Card(nil), st.Burned...),
		removed:     append([]card.Card(nil), st.Removed...),
		collected:   st.Collected,
		collectedAt: st.CollectedAt,
		reshuffles:  st.Reshuffles,
	}
	if !st.Forced {
		s.src = new(mrand.ChaCha8)
		if err := s.src.UnmarshalBinary(st.RNG); err != nil {
			return nil, bad("random source: %v", err)
		}
		s.rng = mrand.New(s.src)
	}
	return s, nil
}

// checkCards checks a shuffled shoe's cards against its decks (EG-01). With
// the discard tray the shoe holds every card it was filled with: exactly N
// decks. With cards collected under the deck (FAM-03) the dealt cards may be
// gone and collected ones added, so only what can still come out is checked:
// the cards still in the shoe, with those burned and removed, are no more
// than N decks hold.
func checkCards(st State) error {
	if st.Collected == DiscardTray {
		if err := Check(st.Cards, st.Decks); err != nil {
			return fmt.Errorf("%w: %w", ErrState, err)
		}
		if len(st.Burned)+len(st.Removed) > st.Pos {
			return fmt.Errorf("%w: %d burned and %d removed cards, but only %d left the shoe", ErrState, len(st.Burned), len(st.Removed), st.Pos)
		}
		return nil
	}
	var count [256]int
	for _, cs := range [][]card.Card{st.Cards[st.Pos:], st.Burned, st.Removed} {
		for _, c := range cs {
			count[c]++
			if count[c] > st.Decks {
				return fmt.Errorf("%w: %w: %v more than %d times in the shoe, burned and removed (EG-01)", ErrState, ErrComposition, c, st.Decks)
			}
		}
	}
	return nil
}
