package analysis

import (
	"context"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// BenchmarkEdge is the full analysis (composition-dependent pass, basic
// strategy construction and its evaluation, every split, no cache) of each
// built-in profile: six decks (spain, venice, vegas-s17, vegas-h17), eight
// (argentina) and one (family).
//
//	go test -run '^$' -bench Edge -benchmem ./analysis/
func BenchmarkEdge(b *testing.B) {
	for _, name := range rules.Names() {
		p := rules.MustLookup(name)
		b.Run(name, func(b *testing.B) {
			// The process's CPU time as well as the wall time: on a
			// shared machine the wall time counts the other jobs too.
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				if _, err := compute(context.Background(), p, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkDealer is one dealer distribution for a shoe (dealer 2 up, six
// decks): the inner loop of the analysis.
func BenchmarkDealer(b *testing.B) {
	p := rules.MustLookup("vegas-s17")
	g := newDealerGraph(p, 1)
	s := FullShoe(p)
	s[1]--
	var buf []float64
	for i := 0; i < b.N; i++ {
		var out [outcomes]float64
		g.dist(&s, &out, &buf)
	}
}

// BenchmarkDealer4 is BenchmarkDealer for four shoes at once (dist4), per
// four distributions.
func BenchmarkDealer4(b *testing.B) {
	p := rules.MustLookup("vegas-s17")
	g := newDealerGraph(p, 1)
	s := FullShoe(p)
	s[1]--
	shoes := []Counts{s, s, s, s}
	var buf dist4Buf
	for i := 0; i < b.N; i++ {
		var out [lanes][outcomes]float64
		g.dist4(shoes, []*[outcomes]float64{&out[0], &out[1], &out[2], &out[3]}, &buf)
	}
}

// BenchmarkHandValues values every action of one hand from a six-deck shoe
// with 60 cards gone (a shoe as it stands mid-shoe: the pit prices each
// decision this way), one core: a hard 16, a soft 18 and a pair of Eights
// (the split, with resplits to four hands, is the heaviest), and the pair of
// Eights against a ten under each other post-split strategy.
func BenchmarkHandValues(b *testing.B) {
	p := rules.MustLookup("vegas-s17")
	removed := card.MustParseList("TS TH TD TC KS KH QD JC 2S 3S 4S 5S 6S 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 2C 3C 4C 5C 6C " +
		"7S 8S 9S AS 7H 8H 9H AH TS TH TD TC KS KH QD JC 2S 3S 4S 5S 6S 2H 3H 4H 5H 6H 9D 9C AD QS")
	for _, c := range []struct {
		name, up, hand string
		sp             SplitPlay
	}{{"16vT", "TS", "TH 6D", SplitCDP1}, {"A7v9", "9S", "AS 7C", SplitCDP1}, {"88vT", "TC", "8H 8D", SplitCDP1}, {"88v6", "6C", "8H 8D", SplitCDP1},
		{"88vT-cdz", "TC", "8H 8D", SplitCDZ}, {"88vT-cdp", "TC", "8H 8D", SplitCDP}, {"88vT-exact", "TC", "8H 8D", SplitBasic}} {
		up, hand := card.MustParse(c.up), card.MustParseList(c.hand)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := HandValues(p, up, hand, EVOptions{Removed: removed, SplitPlay: c.sp}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
