package profilefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseTOMLAndJSON(t *testing.T) {
	toml := "base = \"argentina\"\nname = \"ba-high\"\ndecks = 6\nmax_bet = 500000\nchallenge = false\nblackjack_pays = \"6:5\"\n"
	json := `{"base": "argentina", "name": "ba-high", "decks": 6, "max_bet": 500000, "challenge": false, "blackjack_pays": "6:5"}`
	a, err := Parse([]byte(toml), "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse([]byte(json), "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() || a.Name != "ba-high" || a.Decks != 6 || a.Challenge || a.BlackjackPays.Num != 6 {
		t.Fatalf("toml %+v\njson %+v", a, b)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct{ in, want string }{
		{`base = "argentina"` + "\nmax_hands = 0\n", "max_hands=0"},
		{`base = "argentina"` + "\ncolour = \"red\"\n", "unknown option"},
		{`base = "argentina"` + "\ndecks = 6.5\n", "integer"},
		{`{"base": "argentina", "decks": 6.5}`, "integer"},
		{`base = `, "profile file"},
		{`{"base": 7}`, "base must be"},
	}
	for _, tt := range tests {
		if _, err := Parse([]byte(tt.in), ""); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	p, err := Resolve("venice", []string{"decks=8", "max_bet=1000"})
	if err != nil || p.Decks != 8 || p.MaxBet != 1000 {
		t.Fatalf("%v %+v", err, p)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	os.WriteFile(path, []byte(`{"base":"spain","burn_cards":3}`), 0o644)
	p, err = Resolve(path, nil)
	if err != nil || p.BurnCards != 3 || p.Name != "spain" {
		t.Fatalf("%v %+v", err, p)
	}
	if _, err := Resolve("nowhere", nil); err == nil || !strings.Contains(err.Error(), "unknown profile") {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := Resolve("venice", []string{"max_hands=0"}); err == nil {
		t.Fatal("invalid override accepted")
	}
}
