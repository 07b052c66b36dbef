// Package shoe is the dealing shoe of the regulations: N decks checked when
// loaded (EG-01), shuffled from an injected seeded source, cut (AR-07), a cut
// card with its reserve (AR-08, EG-02), burn cards (EG-03), the last-round
// signal when the cut card comes out (EG-04), reshuffles (EG-05), a face-up
// card removed (EG-06), cards collected under the deck (FAM-03), and a forced
// card order for tests and certification.
//
// Randomness is injected: a Shoe shuffles with a ChaCha8 source from a 32-byte
// seed. Live play seeds it from crypto/rand (RandomSeed), never from the
// clock; tests fix the seed. The same seed gives the same shuffles.
package shoe

import (
	"crypto/rand"
	"errors"
	"fmt"
	mrand "math/rand/v2"

	"sabot/card"
)

// Errors returned, wrapped, by the shoe.
var (
	ErrComposition = errors.New("shoe composition check failed")
	ErrCut         = errors.New("cut refused")
)

// Seed is the 32-byte seed of a shoe's ChaCha8 source.
type Seed [32]byte

// RandomSeed returns a seed from the operating system's CSPRNG.
func RandomSeed() Seed {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		panic("shoe: crypto/rand failed: " + err.Error())
	}
	return s
}

// SeedFromUint64 expands a small number into a seed, for reproducible sessions
// (`sabot play --seed 42`) and tests.
func SeedFromUint64(n uint64) Seed {
	var s Seed
	for i := 0; i < 8; i++ {
		s[i] = byte(n >> (8 * i))
	}
	copy(s[8:], "sabot shoe seed v1 ------")
	return s
}

// Shoe is a dealing shoe. It is not safe for concurrent use.
type Shoe struct {
	decks   int
	cards   []card.Card // cards[pos:] are still in the shoe, next first
	pos     int
	cut     int  // index of the first card behind the cut card; -1: no cut card
	cutOut  bool // the cut card has come out (EG-04)
	rng     *mrand.Rand
	src     *mrand.ChaCha8
	forced  bool
	burned  []card.Card
	removed []card.Card // face-up cards found in the shoe (EG-06)

	collected   Collected
	collectedAt int // index in cards of the first collected card still face up; -1 none
	reshuffles  int
	cutAt       int // where the last cut was made (AR-07)
}

// Collected is where played cards go (FAM-03); see rules.Collected.
type Collected uint8

// The collection modes.
const (
	DiscardTray Collected = iota
	UnderFaceUp
	UnderFaceDown
)

// New returns a shoe of decks full decks in new-deck order, not yet shuffled,
// with a ChaCha8 source seeded by seed.
func New(decks int, seed Seed) *Shoe {
	if decks < 1 {
		panic("shoe: decks < 1")
	}
	src := mrand.NewChaCha8(seed)
	s := &Shoe{decks: decks, src: src, rng: mrand.New(src), cut: -1, collectedAt: -1}
	s.cards = make([]card.Card, 0, 52*decks)
	s.fill()
	return s
}

// NewForced returns a shoe that deals exactly cards, in order: the forced card
// order of tests and certification. It has no cut card and does not shuffle.
func NewForced(cards []card.Card) *Shoe {
	return &Shoe{cards: append([]card.Card(nil), cards...), cut: -1, collectedAt: -1, forced: true}
}

func (s *Shoe) fill() {
	s.cards = s.cards[:0]
	for d := 0; d < s.decks; d++ {
		s.cards = append(s.cards, card.Deck()...)
	}
	s.pos = 0
}

// Check verifies the shoe's composition (EG-01): every card of the deck
// exactly once per deck, nothing else.
func Check(cards []card.Card, decks int) error {
	if len(cards) != 52*decks {
		return fmt.Errorf("%w: %d cards, want %d for %d decks (EG-01)", ErrComposition, len(cards), 52*decks, decks)
	}
	var n [256]int
	for _, c := range cards {
		if !c.Valid() {
			return fmt.Errorf("%w: invalid card %d (EG-01)", ErrComposition, uint8(c))
		}
		n[c]++
	}
	for _, c := range card.Deck() {
		if n[c] != decks {
			return fmt.Errorf("%w: %v appears %d times, want %d (EG-01)", ErrComposition, c, n[c], decks)
		}
	}
	return nil
}

// Composition returns every card the shoe holds in play: still in the shoe,
// burned, removed, and dealt since the last fill. For a full shoe it is the
// loaded composition that EG-01 checks.
func (s *Shoe) Composition() []card.Card { return append([]card.Card(nil), s.cards...) }

// Shuffle puts every card back in the shoe and shuffles it (EG-05): discards,
// burned and removed cards included. Cut card and burns must be done again.
func (s *Shoe) Shuffle() {
	if s.forced {
		panic("shoe: Shuffle of a forced shoe")
	}
	s.fill()
	s.rng.Shuffle(len(s.cards), func(i, j int) { s.cards[i], s.cards[j] = s.cards[j], s.cards[i] })
	s.cut, s.cutOut = -1, false
	s.burned, s.removed = s.burned[:0], s.removed[:0]
	s.collectedAt = -1
	s.reshuffles++
}

// Cut moves the first at cards to the back (AR-07, EG-02). The cut must leave
// more than minCut cards on each side.
func (s *Shoe) Cut(at, minCut int) error {
	n := len(s.cards) - s.pos
	if at <= minCut || n-at <= minCut {
		return fmt.Errorf("%w: a cut at %d of %d cards must leave more than %d cards on each side (AR-07)", ErrCut, at, n, minCut)
	}
	s.cutAt = at
	rest := s.cards[s.pos:]
	tmp := append([]card.Card(nil), rest[:at]...)
	copy(rest, rest[at:])
	copy(rest[n-at:], tmp)
	return nil
}

// RandomCut returns a cut position allowed by minCut, chosen by the shoe's
// source (the player's cut, for an online table).
func (s *Shoe) RandomCut(minCut int) int {
	n := len(s.cards) - s.pos
	lo, hi := minCut+1, n-minCut-1
	if hi < lo {
		return n / 2
	}
	return lo + s.rng.IntN(hi-lo+1)
}

// PlaceCutCard puts the cut card with reserve cards behind it (AR-08, EG-02).
// A reserve of 0 removes the cut card: the shoe deals to its end.
func (s *Shoe) PlaceCutCard(reserve int) {
	if reserve <= 0 || reserve >= len(s.cards)-s.pos {
		s.cut = -1
		return
	}
	s.cut = len(s.cards) - reserve
	s.cutOut = false
}

// Burn removes the next n cards from play, unseen (EG-03). It returns them
// for the record.
func (s *Shoe) Burn(n int) []card.Card {
	start := len(s.burned)
	for i := 0; i < n; i++ {
		c, ok := s.Draw()
		if !ok {
			break
		}
		s.burned = append(s.burned, c)
	}
	return s.burned[start:]
}

// Draw deals the next card. ok is false when the shoe is empty (AR-08: the
// round in progress is then void).
func (s *Shoe) Draw() (c card.Card, ok bool) {
	if s.collected == UnderFaceUp && s.pos == s.collectedAt {
		// FAM-03: the first face-up card is reached: the collected cards
		// are shuffled and the deal goes on.
		rest := s.cards[s.pos:]
		s.rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		s.collectedAt = -1
		s.reshuffles++
	}
	if s.pos >= len(s.cards) {
		return 0, false
	}
	if s.pos == s.cut {
		s.cutOut = true // EG-04: the cut card comes out before this card
	}
	c = s.cards[s.pos]
	s.pos++
	return c, true
}

// CutCardOut reports whether the cut card has come out: the round in progress
// is the last of the shoe (EG-04).
func (s *Shoe) CutCardOut() bool { return s.cutOut }

// RemoveFaceUp removes the next card, found face up in the shoe, to the
// discards without dealing it (EG-06). It returns the card.
func (s *Shoe) RemoveFaceUp() (card.Card, bool) {
	if s.pos >= len(s.cards) {
		return 0, false
	}
	c := s.cards[s.pos]
	s.pos++
	s.removed = append(s.removed, c)
	return c, true
}

// Collect puts played cards under the deck (FAM-03). With the discard tray it
// does nothing: the cards wait for the reshuffle.
func (s *Shoe) Collect(cs ...card.Card) {
	if s.collected == DiscardTray || len(cs) == 0 {
		return
	}
	if s.pos > len(s.cards)/2 && s.pos > 64 {
		// Keep the slice from growing without bound.
		n := copy(s.cards, s.cards[s.pos:])
		if s.collectedAt >= 0 {
			s.collectedAt -= s.pos
		}
		if s.cut >= 0 {
			s.cut -= s.pos
		}
		s.cards = s.cards[:n]
		s.pos = 0
	}
	if s.collected == UnderFaceUp && s.collectedAt < 0 {
		s.collectedAt = len(s.cards)
	}
	s.cards = append(s.cards, cs...)
}

// SetCollected sets where played cards go (FAM-03).
func (s *Shoe) SetCollected(c Collected) { s.collected = c }

// CutAt returns where the last cut was made: the number of cards moved from
// the front to the back (AR-07), for the shoe's record.
func (s *Shoe) CutAt() int { return s.cutAt }

// Remaining is the number of cards still in the shoe.
func (s *Shoe) Remaining() int { return len(s.cards) - s.pos }

// Pos is the number of cards drawn, burned or removed since the shoe was
// filled or last compacted: the position of the next card.
func (s *Shoe) Pos() int { return s.pos }

// Peek returns the next n cards without dealing them (for the record of a
// forced shoe and for tests; a live table never shows them).
func (s *Shoe) Peek(n int) []card.Card {
	end := min(s.pos+n, len(s.cards))
	return append([]card.Card(nil), s.cards[s.pos:end]...)
}

// Burned returns the cards burned since the last shuffle.
func (s *Shoe) Burned() []card.Card { return append([]card.Card(nil), s.burned...) }

// Removed returns the face-up cards removed since the last shuffle (EG-06).
func (s *Shoe) Removed() []card.Card { return append([]card.Card(nil), s.removed...) }

// Reshuffles counts the shuffles since the shoe was made.
func (s *Shoe) Reshuffles() int { return s.reshuffles }

// Decks is the number of decks (0 for a forced shoe).
func (s *Shoe) Decks() int { return s.decks }

// Forced reports whether the shoe deals a forced order.
func (s *Shoe) Forced() bool { return s.forced }
