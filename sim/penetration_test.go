package sim

import (
	"fmt"
	"testing"

	"sabot/rules"
)

// TestPenetrationConvention holds the cut card to its convention: with
// cut_card_reserve r in a shoe of n cards, a round is dealt when it begins
// with at most n − r cards out of the shoe (the burn card included), so
// the round that begins with exactly n − r is dealt, and is the last; and
// the penetration reached (Stats.ShoeCards / ShoesDealt) is the cards out
// at each reshuffle: more than n − r, by at most a round's cards.
func TestPenetrationConvention(t *testing.T) {
	for _, reserve := range []int{78, 79, 0} {
		t.Run(fmt.Sprint("reserve=", reserve), func(t *testing.T) {
			p := rules.MustLookup("vegas-s17")
			must(t, p.SetAll([]string{fmt.Sprint("cut_card_reserve=", reserve)}))
			cfg := Config{Profile: p, Rounds: 1}
			must(t, cfg.normalize())
			tb := newTable(&cfg)
			tb.d.reseed(seedChunk(5, 0))
			tb.shuffle()
			n := 52 * p.Decks
			last := n - reserve // the most cards out at a round's start (no cut card: n, a void round, AR-08)
			maxStart, atLast, shoes := 0, 0, tb.shoes
			for r := 0; r < 300_000; r++ {
				start := tb.d.pos
				maxStart = max(maxStart, start)
				if start == last {
					atLast++
				}
				tb.seat()
				tb.playFast()
				if start == last && reserve > 0 && tb.shoes == shoes {
					t.Fatalf("the round that began with %d cards out was not the last of its shoe", start)
				}
				shoes = tb.shoes
			}
			if maxStart > last || reserve > 0 && atLast == 0 {
				t.Errorf("rounds began with at most %d cards out (%d times with %d); want at most %d, and some with exactly that", maxStart, atLast, last, last)
			}
			if tb.shoesDealt < 1000 {
				t.Fatalf("%d shoes dealt", tb.shoesDealt)
			}
			mean := float64(tb.shoeCards) / float64(tb.shoesDealt)
			switch {
			case reserve == 0 && tb.shoeCards != int64(n)*tb.shoesDealt:
				t.Errorf("dealt to the end: %v cards a shoe, want %d", mean, n)
			case reserve > 0 && (mean <= float64(last) || mean > float64(last)+8):
				t.Errorf("%v cards a shoe: want more than %d by a few", mean, last)
			}
		})
	}
}

// TestPenetrationReported: the result reports the cards dealt per shoe and
// their fraction of the shoe, the same whatever the workers, and a
// continuous shuffler reports none.
func TestPenetrationReported(t *testing.T) {
	cfg := Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 300_000, Seed: 3, ChunkRounds: 1 << 14}
	var first *Result
	for _, w := range []int{1, 2} {
		cfg.Workers = w
		res, err := Run(t.Context(), cfg)
		must(t, err)
		if res.CardsPerShoe <= 234 || res.CardsPerShoe > 240 || res.Penetration != res.CardsPerShoe/312 {
			t.Errorf("%d workers: %v cards per shoe (%v): want a little past the cut card after card 234", w, res.CardsPerShoe, res.Penetration)
		}
		if first != nil && res.Stats != first.Stats {
			t.Errorf("%d workers: the sums differ from 1 worker's", w)
		}
		first = res
	}
	cfg.Continuous = true
	res, err := Run(t.Context(), cfg)
	must(t, err)
	if res.CardsPerShoe != 0 || res.Stats.ShoesDealt != 0 {
		t.Errorf("continuous shuffle: %v cards per shoe over %d shoes, want none", res.CardsPerShoe, res.Stats.ShoesDealt)
	}
}
