package certify

import (
	"fmt"
	"math"
	mrand "math/rand/v2"
	"os"
	"strings"
	"testing"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

// TestShuffleBatteryPasses: the production shuffle (shoe.Shoe) passes every
// card test, one deck and six.
func TestShuffleBatteryPasses(t *testing.T) {
	for _, decks := range []int{1, 6} {
		b := RunBattery(NewShoeShuffler(decks, shoe.SeedFromUint64(7)), decks, 20000)
		for _, x := range b.Tests {
			if !x.Pass {
				t.Errorf("%d decks: %s failed: %s %.3f, p = %.3g", decks, x.Name, x.Statistic, x.Value, x.P)
			}
		}
	}
}

// biasedShuffler is a test-only generator: a Fisher–Yates shuffle that takes
// its index as a random byte modulo i+1, as a careless implementation
// scales a generator's output to a card position (modulo bias, and no index
// above 255 ever drawn).
type biasedShuffler struct {
	decks int
	r     *mrand.Rand
}

func (b *biasedShuffler) Shuffle(cards []card.Card) {
	copy(cards, shoeCards(b.decks))
	for i := len(cards) - 1; i > 0; i-- {
		j := int(byte(b.r.Uint64())) % (i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
}

// naiveShuffler is the other classic mistake: each card swapped with any
// position (n^n paths for n! orders).
type naiveShuffler struct {
	decks int
	r     *mrand.Rand
}

func (b *naiveShuffler) Shuffle(cards []card.Card) {
	copy(cards, shoeCards(b.decks))
	for i := range cards {
		j := b.r.IntN(len(cards))
		cards[i], cards[j] = cards[j], cards[i]
	}
}

// TestShuffleBatteryFailsBiased: the card tests reject deliberately biased
// shuffles: the byte-modulo one (six decks and one) and the naive one.
func TestShuffleBatteryFailsBiased(t *testing.T) {
	for _, c := range []struct {
		name  string
		sh    Shuffler
		decks int
	}{
		{"modulo-byte, 6 decks", &biasedShuffler{6, mrand.New(mrand.NewPCG(1, 2))}, 6},
		{"modulo-byte, 1 deck", &biasedShuffler{1, mrand.New(mrand.NewPCG(1, 2))}, 1},
		{"naive, 1 deck", &naiveShuffler{1, mrand.New(mrand.NewPCG(3, 4))}, 1},
	} {
		b := RunBattery(c.sh, c.decks, 20000)
		if b.Pass() {
			t.Errorf("%s: passed every test: %+v", c.name, b.Tests)
		}
		if b.Tests[0].Pass {
			t.Errorf("%s: the position test passed (p = %.3g)", c.name, b.Tests[0].P)
		}
	}
}

// TestLiveShoesPassTheCardTests: shoes prepared as a live table prepares
// them (a crypto/rand seed each, shoe.Prepare with the profile's cut and
// burns) pass every card test, the procedure's own included: the cut's
// position, the card it brings forward, each burned card (spain burns 5,
// EG-03; argentina cuts beyond 50 cards, AR-07); and so do the same shoes
// seeded from a master seed for a rerun.
func TestLiveShoesPassTheCardTests(t *testing.T) {
	for _, name := range []string{"argentina", "spain", "venice"} {
		p := rules.MustLookup(name)
		for _, sh := range []*LiveShuffler{NewLiveShuffler(p.Decks, p.ShoeProcedure()), NewReplayShuffler(p.Decks, p.ShoeProcedure(), shoe.SeedFromUint64(3))} {
			b := RunBattery(sh, p.Decks, 4000)
			have := map[string]bool{}
			failed := 0
			for _, x := range b.Tests {
				have[x.Name] = true
				// The live path's seeds are crypto/rand's: a fair shuffle
				// fails one test in a thousand at α = 0.001, so one failure
				// (not an extreme one) is let pass there; the replayed path
				// is fixed by its seed and must pass every test.
				if !x.Pass && (!sh.Live || x.P < 1e-6 || failed > 0) {
					t.Errorf("%s (live %v): %s failed: %s %.3f, p = %.3g", name, sh.Live, x.Name, x.Statistic, x.Value, x.P)
				}
				if !x.Pass {
					failed++
				}
			}
			want := []string{"position", "position-suit", "cut-position", "cut-card"}
			for i := 0; i < p.BurnCards; i++ {
				want = append(want, fmt.Sprintf("burn-%d", i+1))
			}
			for _, w := range want {
				if !have[w] {
					t.Errorf("%s: no %s test", name, w)
				}
			}
		}
	}
}

// suitlessShuffler shuffles the ranks fairly but deals each rank's suits in
// a fixed order: the rank tests cannot see it, the suit test must.
type suitlessShuffler struct {
	decks int
	r     *mrand.Rand
}

func (s *suitlessShuffler) Shuffle(cards []card.Card) {
	copy(cards, shoeCards(s.decks))
	s.r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	var next [14]int
	for i, c := range cards {
		cards[i] = card.New(c.Rank(), card.Suit(next[c.Rank()]%4))
		next[c.Rank()]++
	}
}

// fixedCut is the live procedure with the cut always in the middle of the
// shoe and the first burned card always the shoe's first after the cut:
// fair cards, a cut a player cannot make.
type fixedCut struct{ *LiveShuffler }

func (f fixedCut) LastCut() int { return 150 }

// TestCardTestsSeeSuitsAndCuts: the suit test rejects a shuffle fair by
// rank whose suits come in order, and the cut test a cut that is always
// the same.
func TestCardTestsSeeSuitsAndCuts(t *testing.T) {
	b := RunBattery(&suitlessShuffler{6, mrand.New(mrand.NewPCG(5, 6))}, 6, 4000)
	for _, x := range b.Tests {
		if x.Name == "position" && !x.Pass || x.Name == "position-suit" && x.Pass {
			t.Errorf("suits in order: %s p = %.3g", x.Name, x.P)
		}
	}
	p := rules.MustLookup("argentina")
	b = RunBattery(fixedCut{NewReplayShuffler(p.Decks, p.ShoeProcedure(), shoe.SeedFromUint64(4))}, p.Decks, 4000)
	for _, x := range b.Tests {
		if x.Name == "cut-position" && x.Pass {
			t.Errorf("a fixed cut passes the cut test: p = %.3g", x.P)
		}
	}
}

// TestOrderCountInTheDocsIsTheKits: docs/certification.md gives a six-deck
// shoe's count of distinct orders as the randomness report does
// (OrderNote: 312!/(6!)^52, log2 1646.8, written 2^1647), and the count is
// the exact combinatorics.
func TestOrderCountInTheDocsIsTheKits(t *testing.T) {
	note := OrderNote(6)
	if !strings.Contains(note, "2^1647") {
		t.Fatalf("OrderNote(6) = %q", note)
	}
	lg, _ := math.Lgamma(313)
	l6, _ := math.Lgamma(7)
	if bits := (lg - 52*l6) / math.Ln2; math.Abs(bits-1646.8) > 0.05 {
		t.Errorf("log2(312!/(6!)^52) = %.2f", bits)
	}
	doc, err := os.ReadFile("../../docs/certification.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "2¹⁶⁴⁷") || strings.Contains(string(doc), "2¹¹⁰⁸") {
		t.Error("docs/certification.md does not give a six-deck shoe's 2¹⁶⁴⁷ orders")
	}
}
