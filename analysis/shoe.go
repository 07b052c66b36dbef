package analysis

import (
	"fmt"

	"sabot/card"
	"sabot/rules"
)

// The analysis counts cards by value, not by rank: ten-value cards are one
// kind (AR-02, AR-18), so a shoe is ten counts. Index 0 is the Ace, 1 to 8
// the Two to the Nine, 9 the ten-values.
const kinds = 10

const (
	aceIdx = 0
	tenIdx = 9
)

// kindCard is a representative card of each kind, for rules.Count.Add.
var kindCard = [kinds]card.Card{
	card.New(card.Ace, card.Spades), card.New(card.Two, card.Spades), card.New(card.Three, card.Spades),
	card.New(card.Four, card.Spades), card.New(card.Five, card.Spades), card.New(card.Six, card.Spades),
	card.New(card.Seven, card.Spades), card.New(card.Eight, card.Spades), card.New(card.Nine, card.Spades),
	card.New(card.Ten, card.Spades),
}

// kindName is the kind's one-letter code, as on a strategy card.
var kindName = [kinds]string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "T"}

// kindOf returns the kind of a rank.
func kindOf(r card.Rank) int {
	if r >= card.Ten {
		return tenIdx
	}
	return int(r) - 1
}

// Counts is a shoe by kind: Counts[0] Aces, Counts[1] to Counts[8] the Twos to
// the Nines, Counts[9] the ten-value cards.
type Counts [kinds]int

// FullShoe returns the counts of a profile's full shoe.
func FullShoe(p *rules.Profile) Counts {
	var c Counts
	for i := range c {
		c[i] = 4 * p.Decks
	}
	c[tenIdx] = 16 * p.Decks
	return c
}

// Total is the number of cards. (By pointer: the solver totals a shoe at
// every hit, and would copy its 80 bytes first.)
func (c *Counts) Total() int {
	n := 0
	for _, x := range c {
		n += x
	}
	return n
}

// minus returns the counts less the cards of a packed composition (read by
// shifting it: cheaper than get's shift by a variable).
func (c Counts) minus(comp pack) Counts {
	for i := range c {
		c[i] -= int(comp & (1<<packBits - 1))
		comp >>= packBits
	}
	return c
}

// pack is a multiset of kinds packed 6 bits a kind: a hand's cards, or the
// cards removed from a shoe. A count never exceeds 63 (a hand holds at most
// 21 Aces, a split removes at most 8 pair cards).
type pack uint64

const packBits = 6

func (p pack) get(i int) int      { return int(p>>(packBits*uint(i))) & (1<<packBits - 1) }
func (p pack) add(i int) pack     { return p + 1<<(packBits*uint(i)) }
func (p pack) addN(i, n int) pack { return p + pack(n)<<(packBits*uint(i)) }

// size is the number of cards in the multiset.
func (p pack) size() int {
	n := 0
	for i := 0; i < kinds; i++ {
		n += p.get(i)
	}
	return n
}

func (p pack) String() string {
	s := ""
	for i := 0; i < kinds; i++ {
		for j := 0; j < p.get(i); j++ {
			s += kindName[i]
		}
	}
	return s
}

// countOf returns the rules.Count of a packed hand, cards added Aces first.
func countOf(p pack) rules.Count {
	var c rules.Count
	for i := 0; i < kinds; i++ {
		for j := 0; j < p.get(i); j++ {
			c = c.Add(kindCard[i])
		}
	}
	return c
}

// ParseKind reads a kind code: A, 2-9, T (or 10, J, Q, K).
func ParseKind(s string) (int, error) {
	switch s {
	case "10", "J", "Q", "K", "j", "q", "k", "t":
		return tenIdx, nil
	case "a":
		return aceIdx, nil
	}
	for i, n := range kindName {
		if n == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown card %q: want A, 2-9 or T", s)
}
