package analysis

import (
	"context"
	"testing"

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
			for i := 0; i < b.N; i++ {
				if _, err := compute(context.Background(), p, nil); err != nil {
					b.Fatal(err)
				}
			}
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
