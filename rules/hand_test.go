package rules

import (
	"testing"

	"sabot/card"
)

func count(codes string) Count { return CountOf(card.MustParseList(codes)...) }

// AR-02, ES-02, VE-02: an Ace counts 1 or 11, the more favourable.
func TestTotals_AR02_ES02_VE02(t *testing.T) {
	tests := []struct {
		cards string
		total int
		soft  bool
	}{
		{"TS 7H", 17, false},
		{"AS 6H", 17, true},
		{"AS AH", 12, true},
		{"AS AH AD", 13, true},
		{"AS 6H 5D", 12, false},
		{"AS 6H 4D", 21, true},
		{"AS KH", 21, true},
		{"KS QH", 20, false},
		{"TS 6H 9D", 25, false},
		{"AS AH TD 9C", 21, false},
		{"2S 3H 4D 5C 7S", 21, false},
		{"AS AH AD AC AS AH AD AC AS AH AD", 21, true},
	}
	for _, tt := range tests {
		c := count(tt.cards)
		if c.Total() != tt.total || c.Soft() != tt.soft {
			t.Errorf("%s: total %d soft %v, want %d %v", tt.cards, c.Total(), c.Soft(), tt.total, tt.soft)
		}
		if c.Bust() != (tt.total > 21) {
			t.Errorf("%s: bust %v", tt.cards, c.Bust())
		}
	}
	if !count("AS KH").TwoCard21() || count("AS 5H 5D").TwoCard21() || count("TS AH").TwoCard21() != true {
		t.Error("TwoCard21")
	}
}

// AR-11: a declared Ace is irrevocable; Aces drawn later count their best
// value. VE-13: an Ace on a split ten counted 1 makes 11.
func TestDeclare_AR11_VE13(t *testing.T) {
	tests := []struct {
		first string
		value int
		later string
		total int
	}{
		{"AS 6H", 11, "", 17},
		{"AS 6H", 11, "5D", 22}, // irrevocable: not 12
		{"AS 6H", 1, "", 7},
		{"AS 6H", 1, "4D", 11},
		{"AS 2H", 1, "5D AC", 19}, // the later Ace counts 11
		{"AS 2H", 1, "5D AC 9S", 18},
		{"AS AH", 11, "", 12},
		{"AS AH", 1, "", 2},
		{"TS AH", 1, "", 11}, // VE-13
		{"TS AH", 1, "5C", 16},
	}
	for _, tt := range tests {
		c := count(tt.first).Declare(tt.value)
		if tt.later != "" {
			for _, x := range card.MustParseList(tt.later) {
				c = c.Add(x)
			}
		}
		if c.Total() != tt.total {
			t.Errorf("%s declared %d then %q: total %d, want %d", tt.first, tt.value, tt.later, c.Total(), tt.total)
		}
	}
}

// AR-13: the dealer stands on 17 to 21 and draws below, an Ace counting 11
// when that makes 17 to 21: the regulation's own examples. ES-05, VE-08: the
// same rule, soft 17 included. The announced totals follow AR-13's table.
func TestDealerRule_AR13_ES05_VE08(t *testing.T) {
	p := MustLookup("argentina")
	tests := []struct {
		cards     string
		announced int
		draws     bool
	}{
		{"AS AH", 2, true}, {"AS 2H", 3, true}, {"AS 3H", 4, true}, {"AS 4H", 5, true}, {"AS 5H", 6, true},
		{"AS 6H", 17, false}, {"AS 7H", 18, false}, {"AS 8H", 19, false}, {"AS 9H", 20, false}, {"AS KH", 21, false},
		{"4S 2H AD", 17, false}, // Ej. 1
		{"3S 2H AD", 6, true},   // Ej. 2
		{"TS 6H", 16, true}, {"TS 7H", 17, false}, {"TS 6H 6D", 22, false},
	}
	for _, tt := range tests {
		c := count(tt.cards)
		if got := c.AnnouncedTotal(); got != tt.announced {
			t.Errorf("%s announced %d, want %d", tt.cards, got, tt.announced)
		}
		if got := p.DealerDraws(c); got != tt.draws {
			t.Errorf("%s: draws %v, want %v", tt.cards, got, tt.draws)
		}
	}
	for _, name := range []string{"spain", "venice", "vegas-s17"} {
		if MustLookup(name).DealerDraws(count("AS 6H")) {
			t.Errorf("%s draws to soft 17", name)
		}
	}
	if !MustLookup("vegas-h17").DealerDraws(count("AS 6H")) || MustLookup("vegas-h17").DealerDraws(count("TS 7H")) {
		t.Error("vegas-h17 hits soft 17 only")
	}
}

// AR-17, ES-08, VE-11: the totals a hand may double on.
func TestCanDoubleOn_AR17_ES08_VE11(t *testing.T) {
	tests := []struct {
		profile string
		cards   string
		ok      bool
	}{
		{"argentina", "6S 5H", true}, {"argentina", "5S 5H", false}, {"argentina", "9S 3H", false},
		{"spain", "5S 4H", true}, {"spain", "5S 5H", true}, {"spain", "6S 5H", true}, {"spain", "8S 4H", false},
		{"spain", "AS 8H", true}, // soft 19 counted 9 (ES-02 reading)
		{"venice", "TS 7H", true}, {"venice", "AS 9H", true}, {"venice", "2S 2H", true},
	}
	for _, tt := range tests {
		if got := MustLookup(tt.profile).CanDoubleOn(count(tt.cards)); got != tt.ok {
			t.Errorf("%s %s: can double %v, want %v", tt.profile, tt.cards, got, tt.ok)
		}
	}
	// AR-11: a declared hand's count is fixed.
	if MustLookup("spain").CanDoubleOn(count("AS 8H").Declare(11)) {
		t.Error("a declared soft 19 doubled as 9")
	}
}

// VE-06: 11 or less must draw.
func TestMustDraw_VE06(t *testing.T) {
	p := MustLookup("venice")
	if !p.MustDraw(count("5S 6H")) || p.MustDraw(count("5S 7H")) || !p.MustDraw(count("AS AH").Declare(1)) {
		t.Error("venice must draw at 11 or less")
	}
	if MustLookup("spain").MustDraw(count("2S 3H")) {
		t.Error("spain has no obligation")
	}
}
