package sim

import (
	"testing"

	"sabot/rules"
)

// BenchmarkPrepare measures a shuffle of six decks, exact (shoe.Shoe's) and fast.
func BenchmarkPrepare(b *testing.B) {
	p := rules.MustLookup("vegas-s17")
	for _, fast := range []bool{false, true} {
		d := newDeck(p.Decks, p.ShoeProcedure(), false)
		d.fast = fast
		d.reseed(seedChunk(1, 0))
		b.Run(map[bool]string{false: "exact", true: "fast"}[fast], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				d.prepare()
			}
		})
	}
}
