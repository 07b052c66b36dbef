package sim

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"sabot/card"
)

// System is a card-counting system: a tag per card value.
type System struct {
	Name string
	// Tags by value: Tags[1] the Ace, Tags[10] every ten-value card.
	Tags [11]int
	// Balanced systems divide the running count by the decks left (the
	// true count). An unbalanced one (KO) uses the running count, started
	// at IRC per deck (KO: 4 - 4·decks for a balanced finish at +4).
	Balanced bool
	// IRCPerDeck and IRCConst give the initial running count of an
	// unbalanced system: IRCConst + IRCPerDeck·decks.
	IRCPerDeck, IRCConst int
}

// The built-in systems.
var (
	// HiLo is Harvey Dubner's High-Low, as Wong's Professional Blackjack
	// and Schlesinger's Blackjack Attack use it.
	HiLo = System{Name: "hi-lo", Tags: [11]int{0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1}, Balanced: true}
	// KO is the Knock-Out count (Vancura and Fuchs), unbalanced.
	KO = System{Name: "ko", Tags: [11]int{0, -1, 1, 1, 1, 1, 1, 1, 0, 0, -1}, IRCPerDeck: -4, IRCConst: 4}
	// HiOptII is Lance Humble's Hi-Opt II, without an Ace side count.
	HiOptII = System{Name: "hi-opt-ii", Tags: [11]int{0, 0, 1, 1, 2, 2, 1, 1, 0, 0, -2}, Balanced: true}
	// ZenCount is Arnold Snyder's Zen Count.
	ZenCount = System{Name: "zen", Tags: [11]int{0, -1, 1, 1, 2, 2, 2, 1, 0, 0, -2}, Balanced: true}
)

// Systems lists the built-in systems.
func Systems() []System { return []System{HiLo, KO, HiOptII, ZenCount} }

// LookupSystem returns a built-in system by name.
func LookupSystem(name string) (System, error) {
	for _, s := range Systems() {
		if strings.EqualFold(s.Name, name) || strings.EqualFold(strings.ReplaceAll(s.Name, "-", ""), strings.ReplaceAll(name, "-", "")) {
			return s, nil
		}
	}
	names := make([]string, 0, 4)
	for _, s := range Systems() {
		names = append(names, s.Name)
	}
	return System{}, fmt.Errorf("unknown count %q (want %s)", name, strings.Join(names, ", "))
}

// tagTable returns the tag of every card code.
func (s *System) tagTable() (t [256]int32) {
	for _, c := range fullDeck() {
		t[c] = int32(s.Tags[c.Value()])
	}
	return t
}

func fullDeck() []card.Card { return card.Deck() }

// Step is one step of a bet ramp: at a count at or above Count, bet Units.
type Step struct {
	Count float64
	Units int64
}

// Ramp is a bet ramp by count: the units of the highest step whose count is
// at or below the count, and Min below the first step.
type Ramp struct {
	Min   int64
	Steps []Step // ascending counts
}

// ParseRamp reads a ramp such as "2:2,3:4,4:8,5:12" (count:units; 1 unit
// below the first count) or "1:1,2:2,…" where the first step sets the minimum.
func ParseRamp(s string) (Ramp, error) {
	r := Ramp{Min: 1}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		a, b, ok := strings.Cut(f, ":")
		if !ok {
			return r, fmt.Errorf("ramp step %q: want count:units, e.g. 2:2", f)
		}
		c, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
		u, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
		if err1 != nil || err2 != nil || u < 1 || u > 10000 || math.IsNaN(c) {
			return r, fmt.Errorf("ramp step %q: want a count and 1 to 10000 units", f)
		}
		r.Steps = append(r.Steps, Step{c, u})
	}
	if len(r.Steps) == 0 {
		return r, fmt.Errorf("empty ramp")
	}
	sort.Slice(r.Steps, func(i, j int) bool { return r.Steps[i].Count < r.Steps[j].Count })
	return r, nil
}

// Units returns the bet at a count.
func (r *Ramp) Units(count float64) int64 {
	u := r.Min
	if u < 1 {
		u = 1
	}
	for _, s := range r.Steps {
		if count < s.Count {
			break
		}
		u = s.Units
	}
	return u
}

// Max returns the largest bet of the ramp.
func (r *Ramp) Max() int64 {
	m := max(r.Min, 1)
	for _, s := range r.Steps {
		m = max(m, s.Units)
	}
	return m
}

func (r Ramp) String() string {
	var b strings.Builder
	for i, s := range r.Steps {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%g:%d", s.Count, s.Units)
	}
	return b.String()
}

// Wong says when a player who counts plays: he starts a shoe out when In is
// set and enters at a count at or above In; he leaves at a count below Out.
type Wong struct {
	In, Out       float64
	HasIn, HasOut bool
}
