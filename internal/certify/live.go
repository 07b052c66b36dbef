package certify

import (
	"encoding/binary"
	"fmt"
	mrand "math/rand/v2"

	"sabot/card"
	"sabot/shoe"
)

// Prepared is a Shuffler that deals each shoe by a profile's whole shoe
// procedure (shoe.Shoe.Prepare: shuffle, the player's cut, the cut card,
// the burns) and says, for the last shoe, where the cut was made and how
// many cards were burned (they are the first cards of Shuffle's order).
type Prepared interface {
	Shuffler
	Procedure() shoe.Procedure
	LastCut() int
	LastBurned() int
}

// LiveShuffler deals shoes as a live table does (table.newShoe): a seed
// from Seeds (shoe.RandomSeed, crypto/rand, the live path; or a ChaCha8
// stream of a master seed for a rerun), shoe.New, and Prepare with the
// profile's procedure and a random cut. Shuffle writes the whole order of
// the shoe as prepared: the burned cards, then the cards in dealing order.
type LiveShuffler struct {
	Decks int
	Proc  shoe.Procedure
	// Seeds gives each shoe's seed.
	Seeds func() shoe.Seed
	// Live says Seeds is the live path, crypto/rand.
	Live bool

	cut, burned int
}

// NewLiveShuffler is the live path: every shoe's seed from crypto/rand.
func NewLiveShuffler(decks int, proc shoe.Procedure) *LiveShuffler {
	return &LiveShuffler{Decks: decks, Proc: proc, Seeds: shoe.RandomSeed, Live: true}
}

// NewReplayShuffler is the same procedure with its seeds from a ChaCha8
// stream of master, so that a run can be repeated.
func NewReplayShuffler(decks int, proc shoe.Procedure, master shoe.Seed) *LiveShuffler {
	src := mrand.NewChaCha8(master)
	return &LiveShuffler{Decks: decks, Proc: proc, Seeds: func() shoe.Seed {
		var s shoe.Seed
		for i := 0; i < 32; i += 8 {
			binary.LittleEndian.PutUint64(s[i:], src.Uint64())
		}
		return s
	}}
}

// Shuffle prepares the next shoe.
func (l *LiveShuffler) Shuffle(cards []card.Card) {
	sh := shoe.New(l.Decks, l.Seeds())
	burned, err := sh.Prepare(l.Proc, 0)
	if err != nil {
		panic("certify: the shoe procedure: " + err.Error()) // a profile's procedure validates
	}
	n := copy(cards, burned)
	copy(cards[n:], sh.Peek(sh.Remaining()))
	l.cut, l.burned = sh.CutAt(), len(burned)
}

func (l *LiveShuffler) Procedure() shoe.Procedure { return l.Proc }
func (l *LiveShuffler) LastCut() int              { return l.cut }
func (l *LiveShuffler) LastBurned() int           { return l.burned }

// procedureTests are the tests of a prepared shoe's own steps, fed shoe by
// shoe: the cut's position over the range the procedure allows, the rank of
// the card the cut brings to the front (the card at the cut's position
// before it), and the rank of each burned card.
type procedureTests struct {
	n, lo, hi int
	cuts      []int64
	atCut     [13]int64
	burned    [][13]int64
	shoes     int64
}

func newProcedureTests(n int, p shoe.Procedure) *procedureTests {
	lo, hi := p.MinCut+1, n-p.MinCut-1
	if hi < lo {
		lo, hi = n/2, n/2
	}
	return &procedureTests{n: n, lo: lo, hi: hi, cuts: make([]int64, hi-lo+1), burned: make([][13]int64, p.BurnCards)}
}

// add counts one prepared shoe: its order (burned cards first), its cut
// and its burns. The card the cut brought to the front is the first of
// the order.
func (t *procedureTests) add(cards []card.Card, cut, burned int) {
	t.shoes++
	if cut >= t.lo && cut <= t.hi {
		t.cuts[cut-t.lo]++
	}
	t.atCut[cards[0].Rank()-card.Ace]++
	for i := 0; i < burned && i < len(t.burned); i++ {
		t.burned[i][cards[i].Rank()-card.Ace]++
	}
}

// rankTest is a chi-square of ranks drawn one a shoe against the shoe's
// composition (4·decks of each rank): 12 df.
func rankTest(name, what string, counts [13]int64, shoes int64) Test {
	e := float64(shoes) / 13
	x2 := 0.0
	for _, c := range counts {
		d := float64(c) - e
		x2 += d * d / e
	}
	return Test{Name: name, What: what, Statistic: "chi-square", Value: x2, DF: 12, P: ChiSquareP(x2, 12)}
}

func (t *procedureTests) tests() []Test {
	var out []Test
	if t.hi > t.lo {
		e := float64(t.shoes) / float64(len(t.cuts))
		x2 := 0.0
		for _, c := range t.cuts {
			d := float64(c) - e
			x2 += d * d / e
		}
		df := float64(len(t.cuts) - 1)
		out = append(out, Test{Name: "cut-position", What: fmt.Sprintf("the cut's position, %d to %d of %d cards, %d shoes", t.lo, t.hi, t.n, t.shoes),
			Statistic: "chi-square", Value: x2, DF: df, P: ChiSquareP(x2, df)})
	}
	out = append(out, rankTest("cut-card", "the rank of the card the cut brings to the front, one a shoe", t.atCut, t.shoes))
	for i, b := range t.burned {
		out = append(out, rankTest(fmt.Sprintf("burn-%d", i+1), fmt.Sprintf("the rank of burned card %d (EG-03), one a shoe", i+1), b, t.shoes))
	}
	return out
}
