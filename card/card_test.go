package card

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in    string
		want  Card
		value int
	}{
		{"AS", New(Ace, Spades), 1},
		{"TD", New(Ten, Diamonds), 10},
		{"10H", New(Ten, Hearts), 10},
		{"kc", New(King, Clubs), 10},
		{"2H", New(Two, Hearts), 2},
		{"9C", New(Nine, Clubs), 9},
		{"JS", New(Jack, Spades), 10},
		{"QD", New(Queen, Diamonds), 10},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		if got != tt.want || got.Value() != tt.value {
			t.Errorf("Parse(%q) = %v (value %d), want %v (value %d)", tt.in, got, got.Value(), tt.want, tt.value)
		}
	}
	for _, bad := range []string{"", "A", "1S", "11H", "AX", "ZS", "ASS", "10", " AS", "0S"} {
		if _, err := Parse(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error = %v, want ErrSyntax", bad, err)
		}
	}
}

// AR-02, ES-02, VE-02: an Ace counts 1 (or 11, decided by the hand), 2-10 at
// face value, J Q K ten.
func TestValues_AR02_ES02_VE02(t *testing.T) {
	for _, c := range Deck() {
		want := int(c.Rank())
		if want > 10 {
			want = 10
		}
		if c.Value() != want {
			t.Errorf("%v value %d, want %d", c, c.Value(), want)
		}
		if c.IsTen() != (want == 10) {
			t.Errorf("%v IsTen = %v", c, c.IsTen())
		}
	}
}

func TestZeroInvalid(t *testing.T) {
	var c Card
	if c.Valid() {
		t.Fatal("zero card is valid")
	}
	if _, err := c.MarshalText(); err == nil {
		t.Fatal("marshal of zero card succeeded")
	}
}

func TestDeck(t *testing.T) {
	d := Deck()
	seen := map[Card]bool{}
	for _, c := range d {
		if !c.Valid() || seen[c] {
			t.Fatalf("bad or repeated card %v", c)
		}
		seen[c] = true
	}
	if len(seen) != 52 {
		t.Fatalf("deck has %d cards", len(seen))
	}
}

func TestJSON(t *testing.T) {
	in := MustParseList("AS TD 10H 7c")
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `["AS","TD","TH","7C"]` {
		t.Fatalf("marshal = %s", b)
	}
	var out []Card
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if Format(out) != "AS TD TH 7C" {
		t.Fatalf("round trip = %v", Format(out))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"AS", "10H", "td", "", "1", "XX", "10", "AAA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		if !c.Valid() {
			t.Fatalf("Parse(%q) gave invalid card", s)
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("round trip %q -> %v -> %v, %v", s, c, back, err)
		}
	})
}

func ExampleParse() {
	c, _ := Parse("10H")
	fmt.Println(c, c.Value(), c.IsTen())
	// Output: TH 10 true
}
