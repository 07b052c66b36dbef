// Package card is the playing card of a French-suited deck as blackjack uses
// it: a small comparable value whose zero value is invalid, with parsing and
// printing in the two-character codes of the scenario contract (AS, TD, 10H).
package card

import (
	"errors"
	"fmt"
	"strings"
)

// Rank is a card's rank, Ace (1) to King (13). The zero Rank is invalid.
type Rank uint8

// The ranks.
const (
	Ace Rank = 1 + iota
	Two
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
)

// Suit is a card's suit. Suits have no value in blackjack; they are kept so
// that a shoe's composition can be checked card by card (EG-01).
type Suit uint8

// The suits, in the order of the scenario codes S H D C.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

const rankCodes = "A23456789TJQK"
const suitCodes = "SHDC"

// Card is one playing card. It is encoded as rank<<2 | suit, so the zero Card
// is invalid and every valid card fits a byte.
type Card uint8

// New returns the card of a rank and suit; it panics on an invalid rank or suit.
func New(r Rank, s Suit) Card {
	if r < Ace || r > King || s > Clubs {
		panic(fmt.Sprintf("card: invalid rank %d or suit %d", r, s))
	}
	return Card(uint8(r)<<2 | uint8(s))
}

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c >> 2) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c & 3) }

// Valid reports whether c is a real card (not the zero Card).
func (c Card) Valid() bool { return c.Rank() >= Ace && c.Rank() <= King }

// Value is the card's blackjack value with an Ace counted 1 and every
// ten-value card (10 J Q K) counted 10 (AR-02, ES-02, VE-02).
func (c Card) Value() int { return c.Rank().Value() }

// Value is the rank's blackjack value, an Ace counting 1.
func (r Rank) Value() int {
	if r >= Ten {
		return 10
	}
	return int(r)
}

// IsTen reports whether the card is ten-value (10, J, Q, K).
func (c Card) IsTen() bool { return c.Rank() >= Ten }

// IsAce reports whether the card is an Ace.
func (c Card) IsAce() bool { return c.Rank() == Ace }

// String returns the card's code: rank A 2-9 T J Q K, then suit S H D C.
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	return string([]byte{rankCodes[c.Rank()-1], suitCodes[c.Suit()]})
}

// String returns the rank's one-letter code.
func (r Rank) String() string {
	if r < Ace || r > King {
		return "?"
	}
	return rankCodes[r-1 : r]
}

// String returns the suit's one-letter code.
func (s Suit) String() string {
	if s > Clubs {
		return "?"
	}
	return suitCodes[s : s+1]
}

// ErrSyntax is returned, wrapped, for a card code that does not parse.
var ErrSyntax = errors.New("invalid card code")

// Parse reads a card code: a rank A 2 3 4 5 6 7 8 9 T J Q K (or 10 for T)
// followed by a suit S H D C. Lower case is accepted.
func Parse(s string) (Card, error) {
	code := strings.ToUpper(s)
	if strings.HasPrefix(code, "10") {
		code = "T" + code[2:]
	}
	if len(code) != 2 {
		return 0, fmt.Errorf("%w %q: want a rank A 2-9 T J Q K and a suit S H D C, e.g. AS, TD, 10H", ErrSyntax, s)
	}
	r := strings.IndexByte(rankCodes, code[0])
	su := strings.IndexByte(suitCodes, code[1])
	if r < 0 || su < 0 {
		return 0, fmt.Errorf("%w %q: want a rank A 2-9 T J Q K and a suit S H D C, e.g. AS, TD, 10H", ErrSyntax, s)
	}
	return New(Rank(r+1), Suit(su)), nil
}

// MustParse is Parse for codes known to be good; it panics on an error.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads space- or comma-separated card codes.
func ParseList(s string) ([]Card, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' || r == '\r' })
	out := make([]Card, 0, len(fields))
	for _, f := range fields {
		c, err := Parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// MustParseList is ParseList for lists known to be good; it panics on an error.
func MustParseList(s string) []Card {
	cs, err := ParseList(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// Format returns the codes of cards separated by spaces.
func Format(cs []Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// MarshalText implements encoding.TextMarshaler.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("card: marshal of invalid card %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Deck returns the 52 cards of one deck, suit by suit, Ace to King.
func Deck() []Card {
	out := make([]Card, 0, 52)
	for s := Spades; s <= Clubs; s++ {
		for r := Ace; r <= King; r++ {
			out = append(out, New(r, s))
		}
	}
	return out
}
