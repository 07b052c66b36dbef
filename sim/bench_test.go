package sim

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"sabot/rules"
)

// BenchmarkSim measures the fast path on one core: rounds per second of one
// player box, basic strategy, each built-in profile with its shoe
// procedure. Run with
//
//	go test ./sim -run '^$' -bench Sim -benchmem
func BenchmarkSim(b *testing.B) {
	for _, name := range rules.Names() {
		b.Run(name, func(b *testing.B) {
			benchRounds(b, Config{Profile: rules.MustLookup(name), Rounds: 1})
		})
	}
	// Counting: Hi-Lo, a 1-12 ramp, the Illustrious 18 and Fab 4.
	b.Run("vegas-s17/hi-lo-ramp-i18", func(b *testing.B) {
		benchRounds(b, hiLoConfig(rules.MustLookup("vegas-s17")))
	})
}

func hiLoConfig(p *rules.Profile) Config {
	tab := Textbook(p.DealerHitsSoft17)
	if err := tab.LoadIndices(bytes.NewReader(Illustrious18())); err != nil {
		panic(err)
	}
	ramp, _ := ParseRamp("1:2,2:4,3:8,4:12")
	return Config{Profile: p, Rounds: 1, Strategy: tab, Count: &HiLo, Ramp: ramp}
}

func benchRounds(b *testing.B, cfg Config) {
	if err := cfg.normalize(); err != nil {
		b.Fatal(err)
	}
	t := newTable(&cfg)
	t.runChunk(1, 0, 1000, 0) // warm up
	b.ReportAllocs()
	b.ResetTimer()
	t.runChunk(1, 1, int64(b.N), 0)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkSimWorkers measures the scaling of Run from one worker to every
// core (vegas-s17, basic strategy).
func BenchmarkSimWorkers(b *testing.B) {
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			cfg := Config{Profile: rules.MustLookup("vegas-s17"), Rounds: int64(max(b.N, 1)), Workers: w, Seed: 1}
			b.ReportAllocs()
			b.ResetTimer()
			if _, err := Run(context.Background(), cfg); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}
