package certify

import (
	"encoding/binary"
	"fmt"
	"math"
	mrand "math/rand/v2"

	"sabot/card"
	"sabot/shoe"
)

// Alpha is the level of the randomness tests: a test fails when its p-value
// is below it. With the five card tests of a kit, a fair shuffle fails one
// of them by chance about once in 200 kits.
const Alpha = 0.001

// Shuffler deals shuffled shoes: Shuffle fills cards (of length 52·decks)
// with the next shoe, in dealing order.
type Shuffler interface {
	Shuffle(cards []card.Card)
}

// ShoeShuffler is the production shuffle: every shoe a shoe.Shoe of its own
// seed (32 bytes, as a table draws from crypto/rand for each shoe), here
// drawn from a ChaCha8 stream of the kit's master seed so that the tests
// can be run again, shuffled by shoe.Shuffle.
type ShoeShuffler struct {
	Decks int
	seeds *mrand.ChaCha8
}

// NewShoeShuffler returns the production shuffle of decks decks, its shoes'
// seeds drawn from master.
func NewShoeShuffler(decks int, master shoe.Seed) *ShoeShuffler {
	return &ShoeShuffler{Decks: decks, seeds: mrand.NewChaCha8(master)}
}

// Shuffle deals the next shoe: a new shoe.Shoe of a new seed, shuffled.
func (s *ShoeShuffler) Shuffle(cards []card.Card) {
	sh := shoe.New(s.Decks, s.nextSeed())
	sh.Shuffle()
	copy(cards, sh.Peek(len(cards)))
}

// nextSeed is the next shoe's seed from the master's stream.
func (s *ShoeShuffler) nextSeed() shoe.Seed {
	var seed shoe.Seed
	for i := 0; i < 32; i += 8 {
		binary.LittleEndian.PutUint64(seed[i:], s.seeds.Uint64())
	}
	return seed
}

// Test is one statistical test's outcome.
type Test struct {
	Name      string  `json:"name"`
	What      string  `json:"what"`
	Statistic string  `json:"statistic"` // its kind: chi-square, z
	Value     float64 `json:"value"`
	DF        float64 `json:"df,omitempty"`
	P         float64 `json:"p"`
	Pass      bool    `json:"pass"`
	Detail    string  `json:"detail,omitempty"`
}

// Battery is the card tests of a shuffle: shoes shuffled shoes of decks
// decks.
type Battery struct {
	Decks, Shoes int
	Tests        []Test
}

// Pass reports whether every test passed.
func (b *Battery) Pass() bool {
	for _, t := range b.Tests {
		if !t.Pass {
			return false
		}
	}
	return true
}

// RunBattery shuffles shoes shoes of decks decks with sh and tests them:
//
//   - position: the rank at each position of the shoe against uniform, a
//     chi-square over positions × 13 ranks. Each shoe holds every rank 4·decks
//     times, so the table's margins are fixed shoe by shoe; under a uniform
//     shuffle X²·(N−1)/N is chi-square with 12·(N−1) degrees of freedom
//     (N the shoe's cards).
//   - pairs: the ranks of two adjacent cards, one pair a shoe (at position
//     i mod N−1 of the i-th shoe, so that the pairs are independent), against
//     their exact probabilities without replacement: chi-square, 168 df.
//   - runs of colour and runs of high cards (tens and Aces) against the
//     others: the number of runs in each shoe, summed over the shoes, against
//     its exact mean and variance for a random order (Wald–Wolfowitz): z.
//   - serial correlation: the lag-1 correlation of the cards' values within
//     each shoe, whose mean for a random order is exactly −1/N, averaged
//     over the shoes: z by the sample variance.
func RunBattery(sh Shuffler, decks, shoes int) *Battery {
	n := 52 * decks
	cards := make([]card.Card, n)
	pos := make([][13]int64, n)
	ident := make([][52]int64, n) // by rank and suit
	var proc *procedureTests
	prep, _ := sh.(Prepared)
	if prep != nil {
		proc = newProcedureTests(n, prep.Procedure())
	}
	var pairs [13][13]int64
	runsColour, runsHigh := 0.0, 0.0
	var corrSum, corrSq float64
	// The cards' values' mean and sum of squares are the shoe's, fixed.
	var vals []float64
	for _, c := range shoeCards(decks) {
		vals = append(vals, float64(c.Value()))
	}
	mean, ss := meanSS(vals)
	v := make([]float64, n)
	for i := 0; i < shoes; i++ {
		sh.Shuffle(cards)
		if proc != nil {
			proc.add(cards, prep.LastCut(), prep.LastBurned())
		}
		for p, c := range cards {
			pos[p][c.Rank()-card.Ace]++
			ident[p][identIndex(c)]++
			v[p] = float64(c.Value()) - mean
		}
		p := i % (n - 1)
		pairs[cards[p].Rank()-card.Ace][cards[p+1].Rank()-card.Ace]++
		runsColour += float64(runs(cards, red))
		runsHigh += float64(runs(cards, high))
		var s float64
		for p := 0; p+1 < n; p++ {
			s += v[p] * v[p+1]
		}
		r := s / ss
		corrSum += r
		corrSq += r * r
	}
	b := &Battery{Decks: decks, Shoes: shoes}
	M, N := float64(shoes), float64(n)

	// Positions × ranks.
	e := M / 13
	x2 := 0.0
	for p := range pos {
		for r := range pos[p] {
			d := float64(pos[p][r]) - e
			x2 += d * d / e
		}
	}
	x2 *= (N - 1) / N
	df := 12 * (N - 1)
	b.add(Test{Name: "position", What: fmt.Sprintf("rank at each of the %d positions, %d shoes", n, shoes),
		Statistic: "chi-square", Value: x2, DF: df, P: ChiSquareP(x2, df)})

	// Positions × cards (rank and suit): each of the 52 cards is in the
	// shoe decks times, so the margins are fixed as above: 51·(N−1) df.
	e = M / 52
	x2 = 0
	for p := range ident {
		for r := range ident[p] {
			d := float64(ident[p][r]) - e
			x2 += d * d / e
		}
	}
	x2 *= (N - 1) / N
	df = 51 * (N - 1)
	b.add(Test{Name: "position-suit", What: fmt.Sprintf("card (rank and suit) at each of the %d positions, %d shoes", n, shoes),
		Statistic: "chi-square", Value: x2, DF: df, P: ChiSquareP(x2, df)})

	// Adjacent pairs.
	per := 4 * N / 52 // cards of a rank in the shoe
	x2 = 0
	for a := 0; a < 13; a++ {
		for c := 0; c < 13; c++ {
			q := per / N * per / (N - 1)
			if a == c {
				q = per / N * (per - 1) / (N - 1)
			}
			e := M * q
			d := float64(pairs[a][c]) - e
			x2 += d * d / e
		}
	}
	b.add(Test{Name: "pairs", What: fmt.Sprintf("ranks of adjacent cards, 169 pairs, one pair in each of %d shoes", shoes),
		Statistic: "chi-square", Value: x2, DF: 168, P: ChiSquareP(x2, 168)})

	// Runs.
	for _, r := range []struct {
		name, what string
		k          float64 // cards of the first kind
		sum        float64
	}{
		{"runs-colour", "runs of red and black cards in each shoe", N / 2, runsColour},
		{"runs-high", "runs of high cards (ten-values and Aces) and the others in each shoe", 20 * float64(decks), runsHigh},
	} {
		n1, n2 := r.k, N-r.k
		mu := 1 + 2*n1*n2/N
		va := 2 * n1 * n2 * (2*n1*n2 - N) / (N * N * (N - 1))
		z := (r.sum - M*mu) / math.Sqrt(M*va)
		b.add(Test{Name: r.name, What: r.what, Statistic: "z", Value: z, P: NormalP(z),
			Detail: fmt.Sprintf("mean %.4f runs a shoe, expected %.4f", r.sum/M, mu)})
	}

	// Serial correlation.
	cm := corrSum / M
	sd := math.Sqrt(math.Max(corrSq/M-cm*cm, 0) * M / (M - 1))
	z := (cm + 1/N) / (sd / math.Sqrt(M))
	b.add(Test{Name: "serial-correlation", What: "lag-1 correlation of the cards' values (A=1, tens=10) within each shoe",
		Statistic: "z", Value: z, P: NormalP(z), Detail: fmt.Sprintf("mean %.6f, expected %.6f", cm, -1/N)})
	if proc != nil {
		for _, t := range proc.tests() {
			b.add(t)
		}
	}
	return b
}

// identIndex numbers a card by rank and suit, 0 to 51.
func identIndex(c card.Card) int { return int(c.Rank()-card.Ace)*4 + int(c.Suit()) }

func (b *Battery) add(t Test) {
	t.Pass = t.P >= Alpha
	b.Tests = append(b.Tests, t)
}

func shoeCards(decks int) []card.Card {
	var out []card.Card
	for d := 0; d < decks; d++ {
		out = append(out, card.Deck()...)
	}
	return out
}

func meanSS(x []float64) (mean, ss float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, ss
}

func red(c card.Card) bool  { return c.Suit() == card.Hearts || c.Suit() == card.Diamonds }
func high(c card.Card) bool { return c.IsTen() || c.IsAce() }

func runs(cs []card.Card, kind func(card.Card) bool) int {
	n := 1
	for i := 1; i < len(cs); i++ {
		if kind(cs[i]) != kind(cs[i-1]) {
			n++
		}
	}
	return n
}
