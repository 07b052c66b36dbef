package sim

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

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
	// Counting: Hi-Lo and a 1-12 ramp on the basic strategy (the set-up of
	// BenchmarkBareCountingLoop).
	b.Run("vegas-s17/hi-lo-ramp", func(b *testing.B) {
		benchRounds(b, hiLoRampConfig(rules.MustLookup("vegas-s17")))
	})
	// Counting: Hi-Lo, a 1-12 ramp, the Illustrious 18 and Fab 4.
	b.Run("vegas-s17/hi-lo-ramp-i18", func(b *testing.B) {
		benchRounds(b, hiLoConfig(rules.MustLookup("vegas-s17")))
	})
	// The same with a player's true count: decks to the half deck, floored.
	b.Run("vegas-s17/hi-lo-ramp-i18-half-deck-floor", func(b *testing.B) {
		c := hiLoConfig(rules.MustLookup("vegas-s17"))
		c.TrueCount = TrueCount{Decks: 0.5, Round: RoundFloor}
		benchRounds(b, c)
	})
	// The general path: the set-ups the fast one does not play (back
	// bets, the pontoon options, a strategy that is not a card), and
	// vegas-s17's basic strategy on it for comparison with the fast path.
	b.Run("general/venice/back-bets-follow", func(b *testing.B) {
		benchRounds(b, Config{Profile: rules.MustLookup("venice"), Rounds: 1, BackBets: 2, BackFollow: true})
	})
	b.Run("general/family/pontoon", func(b *testing.B) {
		p := rules.MustLookup("family")
		if err := p.SetAll([]string{"five_card_21=true", "three_sevens=true"}); err != nil {
			b.Fatal(err)
		}
		benchRounds(b, Config{Profile: p, Rounds: 1})
	})
	b.Run("general/vegas-s17/strategy-not-a-card", func(b *testing.B) {
		benchRounds(b, Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 1, Strategy: notACard{Textbook(false)}})
	})
	b.Run("general/vegas-s17", func(b *testing.B) {
		benchRounds(b, Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 1, noFast: true})
	})
}

// notACard is a strategy card behind another type: a Strategy the fast
// path does not tabulate.
type notACard struct{ Strategy }

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
	if general := cfg.noFast || !fastEligible(&cfg); general != (t.fp == nil) {
		b.Fatalf("general path %v, want %v", t.fp == nil, general)
	}
	t.runChunk(1, 0, 1000, 0) // warm up
	// The thread's CPU time as well as the wall time: on a machine
	// shared with other work the wall time counts the time the thread
	// waited for a core; cpu-ns/round does not.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := threadCPU()
	t.runChunk(1, 1, int64(b.N), 0)
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/round")
}

// threadCPU is the calling thread's CPU time (user and system).
func threadCPU() time.Duration {
	const rusageThread = 1 // Linux RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
