package sim

import (
	"slices"
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
					size := len(d.buf)
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
							if got := d.buf[d.pos-len(round) : d.pos]; proc.Collected != shoe.DiscardTray && !slices.Equal(got, round) {
								t.Fatalf("seed %d card %d: the deck's last cards are %v, the round's %v", seed, i, got, round)
							}
							d.collect(len(round))
							if len(d.buf) != size {
								t.Fatalf("seed %d card %d: the deck's buffer grew to %d cards from %d", seed, i, len(d.buf), size)
							}
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

// TestContinuousDeck checks the continuous shuffler, exact (a pick per
// card) and fast (a few cards ahead): every round is a uniformly random
// deal of the whole shoe, so each rank is the first card of a round, and
// its tenth (past the fast deck's first picks), in proportion to its cards.
func TestContinuousDeck(t *testing.T) {
	p := rules.MustLookup("vegas-s17")
	for _, fast := range []bool{false, true} {
		d := newDeck(p.Decks, p.ShoeProcedure(), true)
		d.fast = fast
		d.reseed(seedChunk(7, 0))
		var first, tenth [14]int
		const rounds = 130000
		for i := 0; i < rounds; i++ {
			d.prepare()
			first[d.draw().Rank()]++
			for k := 1; k < 9; k++ {
				d.draw()
			}
			tenth[d.draw().Rank()]++
		}
		for r := card.Ace; r <= card.King; r++ {
			// Expected rounds/13 = 10000, SD ≈ 96: within 5 SD.
			for _, n := range []int{first[r], tenth[r]} {
				if n < 10000-480 || n > 10000+480 {
					t.Errorf("fast %v: rank %v first or tenth in %d of %d rounds, want about 10000", fast, r, n, rounds)
				}
			}
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
		copy(d.buf, cs)
		d.shuffleFast(0, len(cs))
		copy(cs, d.buf)
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

// TestFastDeckPastTheCut checks the fast deck's shuffle stopped past the cut
// card and finished when a round deals further (prepare, refill): over many
// two-deck shoes dealt to the end, every card code lands in every position
// equally often, before and after the stop (a chi-square test over the
// 52×104 counts of code by position).
func TestFastDeckPastTheCut(t *testing.T) {
	const n = 104
	d := newDeck(2, shoe.Procedure{CutCardReserve: 60}, false)
	d.fast = true
	d.reseed(seedChunk(8, 0))
	const shoes = 20000
	var cnt [64][n]int
	for k := 0; k < shoes; k++ {
		d.prepare()
		if k == 0 && d.shuffled != n-60+pastCut {
			t.Fatalf("the fast deck shuffled %d cards at first, want %d", d.shuffled, n-60+pastCut)
		}
		for d.pos < n {
			pos := d.pos
			cnt[d.draw()&63][pos]++
		}
		if d.shuffled != -1 {
			t.Fatalf("dealt to the end, the deck shuffled %d cards", d.shuffled)
		}
	}
	want := shoes * 2.0 / n
	chi := 0.0
	for _, c := range card.Deck() {
		for pos := 0; pos < n; pos++ {
			x := float64(cnt[c&63][pos]) - want
			chi += x * x / want
		}
	}
	// About 52·104·(1−1/52) = 5304, SD about √(2·5408) ≈ 104: within 5 SD.
	if chi < 5304-520 || chi > 5304+520 {
		t.Errorf("chi-square %.0f, want 5304 ± 520: the shuffle is not uniform", chi)
	}
	t.Logf("chi-square %.0f (want 5304 ± 104)", chi)
}
