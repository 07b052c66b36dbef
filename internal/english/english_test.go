package english

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n         int
		one, many string
		want      string
	}{
		{1, "deck", "decks", "1 deck"},
		{8, "deck", "decks", "8 decks"},
		{0, "round", "rounds", "0 rounds"},
		{-1, "card", "cards", "-1 cards"},
		{3, "card is", "cards are", "3 cards are"},
	} {
		if got := Count(c.n, c.one, c.many); got != c.want {
			t.Errorf("Count(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
}

func TestCapitalize(t *testing.T) {
	for in, want := range map[string]string{"": "", "a hand": "A hand", "A hand": "A hand", "9 or less": "9 or less"} {
		if got := Capitalize(in); got != want {
			t.Errorf("Capitalize(%q) = %q, want %q", in, got, want)
		}
	}
}
