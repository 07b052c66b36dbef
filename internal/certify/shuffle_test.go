package certify

import (
	mrand "math/rand/v2"
	"testing"

	"sabot/card"
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
