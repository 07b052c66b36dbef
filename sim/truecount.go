package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TrueCount is how the player turns a balanced count's running count into
// the true count he bets, wongs, insures and takes his index plays on: the
// running count divided by the decks left, estimated to a resolution, the
// quotient rounded, as published simulations (Schlesinger's Blackjack
// Attack, Wong's Professional Blackjack, CVData) compute it. The zero value
// is the exact true count: the running count per 52 cards left, not
// rounded. An unbalanced count (KO) bets on its running count and ignores
// it.
type TrueCount struct {
	// Decks is the resolution of the estimate of the decks left: 0 exact
	// (cards left / 52); 1, 0.5 or 0.25 the cards left / 52 rounded to
	// the nearest multiple of Decks, a tie to the larger, and never below
	// Decks (1½ decks left are 1½ to the half deck, 2 to the deck; a few
	// cards left are one resolution).
	Decks float64
	// Round rounds the quotient to a multiple of Step.
	Round Rounding
	// Step is what the quotient is rounded to a multiple of: 0 or 1 a
	// whole count, 0.5 a half count. Only with a Round.
	Step float64
}

// Rounding is how the quotient of the running count by the decks left is
// rounded.
type Rounding uint8

// The roundings of the true count.
const (
	RoundNone     Rounding = iota // not rounded
	RoundFloor                    // down: 1.5 → 1, −1.5 → −2
	RoundTruncate                 // toward zero: 1.5 → 1, −1.5 → −1
	RoundNearest                  // to the nearest, a tie away from zero: 1.5 → 2, −1.5 → −2, 1.4 → 1
)

var roundingNames = [...]string{"none", "floor", "truncate", "nearest"}

func (r Rounding) String() string {
	if int(r) < len(roundingNames) {
		return roundingNames[r]
	}
	return fmt.Sprintf("Rounding(%d)", r)
}

// ParseRounding reads a rounding: none, floor, truncate or nearest (also
// round).
func ParseRounding(s string) (Rounding, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "round" {
		return RoundNearest, nil
	}
	for i, n := range roundingNames {
		if s == n {
			return Rounding(i), nil
		}
	}
	return 0, fmt.Errorf("rounding %q: want none, floor, truncate or nearest", s)
}

// ParseDeckResolution reads the resolution of the decks-left estimate:
// exact (0), 1, 0.5 or 0.25 (also 1/2, 1/4, full, half, quarter).
func ParseDeckResolution(s string) (float64, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "exact", "0":
		return 0, nil
	case "full", "1/1":
		return 1, nil
	case "half", "1/2":
		return 0.5, nil
	case "quarter", "1/4":
		return 0.25, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !validResolution(v) {
		return 0, fmt.Errorf("deck resolution %q: want exact, 1, 0.5 or 0.25", s)
	}
	return v, nil
}

func validResolution(v float64) bool { return v == 0 || v == 1 || v == 0.5 || v == 0.25 }

// ParseCountStep reads the step of a rounded true count: 1 or 0.5.
func ParseCountStep(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v != 1 && v != 0.5 {
		return 0, fmt.Errorf("true-count step %q: want 1 or 0.5", s)
	}
	return v, nil
}

// Exact reports whether m is the exact true count, the default: the zero
// value (or with a step of 1).
func (m TrueCount) Exact() bool { return m.Decks == 0 && m.Round == RoundNone }

// Validate reports a method the simulator does not know (Run refuses it
// with ErrConfig).
func (m TrueCount) Validate() error {
	switch {
	case !validResolution(m.Decks):
		return fmt.Errorf("true count: deck resolution %g: want 0 (exact), 1, 0.5 or 0.25", m.Decks)
	case m.Round > RoundNearest:
		return fmt.Errorf("true count: unknown rounding %d", m.Round)
	case m.Step != 0 && m.Step != 1 && m.Step != 0.5:
		return fmt.Errorf("true count: step %g: want 1 or 0.5", m.Step)
	case m.Step == 0.5 && m.Round == RoundNone:
		return fmt.Errorf("true count: a step of 0.5 needs a rounding")
	}
	return nil
}

// DecksLeft is the player's estimate of the decks left with cardsLeft cards
// in the shoe (at least 1): cardsLeft/52 exactly, or rounded to the nearest
// multiple of the resolution (a tie to the larger), never below it.
func (m TrueCount) DecksLeft(cardsLeft int) float64 {
	cardsLeft = max(cardsLeft, 1)
	if m.Decks == 0 {
		return float64(cardsLeft) / 52
	}
	// 52·Decks is 52, 26 or 13 and k+½ a tie exactly: Floor(q+½) rounds
	// a tie up.
	k := math.Floor(float64(cardsLeft)/(52*m.Decks) + 0.5)
	return max(k, 1) * m.Decks
}

// Of is the true count of a running count with cardsLeft cards in the shoe
// (at least 1). The exact method is running·52/cardsLeft, the simulator's
// count since the beginning; an estimate divides by DecksLeft; then the
// rounding.
func (m TrueCount) Of(running, cardsLeft int) float64 {
	cardsLeft = max(cardsLeft, 1)
	var x float64
	if m.Decks == 0 {
		x = float64(running) * 52 / float64(cardsLeft)
	} else {
		x = float64(running) / m.DecksLeft(cardsLeft)
	}
	return m.round(x)
}

// round rounds a quotient to a multiple of the step (1 or ½: the scaling
// is exact).
func (m TrueCount) round(x float64) float64 {
	if m.Step == 0.5 {
		return m.roundWhole(2*x) / 2
	}
	return m.roundWhole(x)
}

func (m TrueCount) roundWhole(x float64) float64 {
	switch m.Round {
	case RoundFloor:
		return math.Floor(x)
	case RoundTruncate:
		return math.Trunc(x)
	case RoundNearest:
		return math.Round(x)
	}
	return x
}

func (m TrueCount) String() string {
	if m.Exact() {
		return "exact"
	}
	var b strings.Builder
	switch m.Decks {
	case 0:
		b.WriteString("exact decks")
	case 1:
		b.WriteString("decks to the deck")
	case 0.5:
		b.WriteString("decks to the half deck")
	default:
		b.WriteString("decks to the quarter deck")
	}
	if m.Round != RoundNone {
		b.WriteString(", ")
		switch m.Round {
		case RoundFloor:
			b.WriteString("floored")
		case RoundTruncate:
			b.WriteString("truncated")
		case RoundNearest:
			b.WriteString("rounded")
		}
		if m.Step == 0.5 {
			b.WriteString(" to the half count")
		}
	}
	return b.String()
}
