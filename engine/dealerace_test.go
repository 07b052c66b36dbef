package engine

import (
	"slices"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// AR-13: the dealer's Ace with an Ace or a 2 to 5 counts 1 (13 a), an Ace
// drawn later counts 11 where that makes 17 or more (13 c); dealer_ace says
// whether an Ace counted 1 stays 1 once he draws. On forced cards, the
// dealer's cards, his total and the total he announces after each card,
// under both readings; the box stands on 19 (ten, nine).
func TestDealerAce_AR13(t *testing.T) {
	cases := []struct {
		name, reading, cards string
		dealer               string // the dealer's cards, up card first
		announced            []int  // after each of his cards from the second
		total                int
		net                  int64
	}{
		{"A-5 then a 2 is 18 and stands", "recount", "TS AD 9H 5C 2H 3S 9D", "AD 5C 2H", []int{6, 18}, 18, 100},
		{"A-5 then a 2 is 8 and draws", "stays-one", "TS AD 9H 5C 2H 3S 9D", "AD 5C 2H 3S 9D", []int{6, 8, 11, 20}, 20, -100},
		{"3-2-A then a 3 is 19", "recount", "TS 3D 9H 2C AH 3S 8D", "3D 2C AH 3S", []int{5, 6, 19}, 19, 0},
		{"3-2-A counts 6 and stays 1: then a 3 is 9", "stays-one", "TS 3D 9H 2C AH 3S 8D", "3D 2C AH 3S 8D", []int{5, 6, 9, 17}, 17, 100},
		// An Ace drawn after the first is fixed counts 11 where that
		// makes 17 to 21, as 13 c) counts it: A-5 (6), A is 17.
		{"A-5-A is 17 either way", "stays-one", "TS AD 9H 5C AH 9D", "AD 5C AH", []int{6, 17}, 17, 100},
		{"A-5-A is 17 recounted", "recount", "TS AD 9H 5C AH 9D", "AD 5C AH", []int{6, 17}, 17, 100},
		// 4-2-A is 17 and stands (13 c), under both readings.
		{"4-2-A stands on 17", "stays-one", "TS 4D 9H 2C AH", "4D 2C AH", []int{6, 17}, 17, 100},
		// A-6 is 17 and stands (13 b): nothing is drawn to fix.
		{"A-6 stands", "stays-one", "TS AD 9H 6C 5S", "AD 6C", []int{17}, 17, 100},
	}
	for _, c := range cases {
		t.Run(c.reading+"/"+c.name, func(t *testing.T) {
			p := rules.MustLookup("argentina")
			if err := p.Set("dealer_ace", c.reading); err != nil {
				t.Fatal(err)
			}
			r := New(p)
			r.Reset(NewForced(card.MustParseList(c.cards)))
			if err := r.PlaceBet("ana", 1, 100); err != nil {
				t.Fatal(err)
			}
			if err := r.Start(); err != nil {
				t.Fatal(err)
			}
			if err := r.Act(Action{Kind: Stand, Player: "ana", Box: 1, Hand: 1}); err != nil {
				t.Fatal(err)
			}
			d := r.Dealer()
			if got := card.Format(d.Cards()); got != c.dealer {
				t.Fatalf("dealer's cards %s, want %s", got, c.dealer)
			}
			if d.Total() != c.total {
				t.Errorf("dealer's total %d, want %d", d.Total(), c.total)
			}
			var said []int
			for i := 2; i <= len(d.Cards()); i++ {
				said = append(said, p.DealerCount(d.Cards()[:i]...).AnnouncedTotal())
			}
			if !slices.Equal(said, c.announced) {
				t.Errorf("announced %v, want %v", said, c.announced)
			}
			if net, _ := r.Net(); int64(net["ana"]) != c.net {
				t.Errorf("ana nets %d, want %d", net["ana"], c.net)
			}
		})
	}
}
