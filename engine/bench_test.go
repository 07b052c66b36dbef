package engine

import (
	"testing"

	"sabot/rules"
	"sabot/shoe"
)

// BenchmarkRound plays full one-box rounds through the checked path (Act)
// on a shoe that runs with its cut card, burns and reshuffles, per profile.
// The rounds/s metric is per core (the benchmark runs on one goroutine).
func BenchmarkRound(b *testing.B) {
	for _, name := range rules.Names() {
		b.Run(name, func(b *testing.B) {
			p := rules.MustLookup(name)
			s := shoe.New(p.Decks, shoe.SeedFromUint64(7))
			proc := p.ShoeProcedure()
			proc.CutCardReserve = max(proc.CutCardReserve, 20)
			if _, err := s.Prepare(proc, 0); err != nil {
				b.Fatal(err)
			}
			r := New(p)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if s.CutCardOut() {
					s.Prepare(proc, 0)
				}
				r.Reset(s)
				if err := r.PlaceBet("ana", 1, 100); err != nil {
					b.Fatal(err)
				}
				r.Start()
				for r.Phase() != Done {
					if err := r.Act(simple(r)); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}
