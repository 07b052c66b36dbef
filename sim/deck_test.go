package sim

import (
	"testing"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

// TestDeckMatchesShoe holds the simulator's deck to shoe.Shoe: for the same
// seed, the same shuffle, cut (AR-07), cut card (AR-08, EG-02), burns (EG-03)
// and FAM-03 collection deal the same cards in the same order, and the cut
// card comes out at the same card.
func TestDeckMatchesShoe(t *testing.T) {
	for _, name := range rules.Names() {
		for _, collected := range []string{"", "under-face-up", "under-face-down"} {
			p := rules.MustLookup(name)
			if collected != "" {
				if err := p.SetAll([]string{"collected_cards=" + collected, "cut_card_reserve=0"}); err != nil {
					t.Fatal(err)
				}
			}
			t.Run(name+"/"+collected, func(t *testing.T) {
				proc := p.ShoeProcedure()
				for seed := uint64(1); seed <= 3; seed++ {
					sd := seedChunk(seed, int(seed))
					s := shoe.New(p.Decks, sd)
					if _, err := s.Prepare(proc, 0); err != nil {
						t.Fatal(err)
					}
					d := newDeck(p.Decks, proc, false)
					d.reseed(sd)
					d.prepare()
					var round []card.Card
					for i := 0; i < 40*52*p.Decks; i++ {
						want, ok := s.Draw()
						if !ok {
							if !(d.pos >= d.n) {
								t.Fatalf("seed %d card %d: the shoe is empty, the deck holds %d", seed, i, d.remaining())
							}
							s.Prepare(proc, 0)
							d.prepare()
							continue
						}
						got := d.draw()
						if got != want {
							t.Fatalf("seed %d card %d: deck deals %v, shoe %v", seed, i, got, want)
						}
						if d.cutOut() != s.CutCardOut() {
							t.Fatalf("seed %d card %d: cut card out: deck %v, shoe %v", seed, i, d.cutOut(), s.CutCardOut())
						}
						if d.remaining() != s.Remaining() {
							t.Fatalf("seed %d card %d: remaining: deck %d, shoe %d", seed, i, d.remaining(), s.Remaining())
						}
						round = append(round, got)
						if len(round) == 5+i%7 { // a round ends: collect its cards (FAM-03)
							s.Collect(round...)
							d.collect(round, proc.Collected)
							round = round[:0]
							if s.CutCardOut() {
								s.Prepare(proc, 0)
								d.prepare()
							}
						}
					}
				}
			})
		}
	}
}

// TestContinuousDeck checks the continuous shuffler: every round is a
// uniformly random deal of the whole shoe, so each rank is the first card
// of a round in proportion to its cards.
func TestContinuousDeck(t *testing.T) {
	p := rules.MustLookup("vegas-s17")
	d := newDeck(p.Decks, p.ShoeProcedure(), true)
	d.reseed(seedChunk(7, 0))
	var n [14]int
	const rounds = 130000
	for i := 0; i < rounds; i++ {
		d.prepare()
		n[d.draw().Rank()]++
		d.draw()
		d.draw()
	}
	for r := card.Ace; r <= card.King; r++ {
		// Expected rounds/13 = 10000, SD ≈ 96: within 5 SD.
		if n[r] < 10000-480 || n[r] > 10000+480 {
			t.Errorf("rank %v first in %d of %d rounds, want about 10000", r, n[r], rounds)
		}
	}
}

// TestFastShuffleUniform checks the fast shuffle: over many shuffles of a
// deck, every card lands in every position equally often (a chi-square
// test over the 52×52 position counts, 2601 degrees of freedom).
func TestFastShuffleUniform(t *testing.T) {
	p := rules.MustLookup("family")
	d := newDeck(1, p.ShoeProcedure(), false)
	d.fast = true
	d.reseed(seedChunk(3, 0))
	const shuffles = 52 * 400
	var n [52][52]int
	cs := make([]card.Card, 52)
	for k := 0; k < shuffles; k++ {
		for i := range cs {
			cs[i] = card.Card(i)
		}
		d.shuffleFast(cs)
		for pos, c := range cs {
			n[c][pos]++
		}
	}
	const want = shuffles / 52.0
	chi := 0.0
	for c := range n {
		for pos := range n[c] {
			x := float64(n[c][pos]) - want
			chi += x * x / want
		}
	}
	// df = 51·51 = 2601, SD √(2·2601) ≈ 72: within 5 SD.
	if chi < 2601-360 || chi > 2601+360 {
		t.Errorf("chi-square %.0f over 2601 degrees of freedom: the shuffle is not uniform", chi)
	}
}
