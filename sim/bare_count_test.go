package sim

import (
	"math"
	"runtime"
	"testing"

	"sabot/rules"
)

// bareCounter is the bare loop of a counter: bareGame's rounds, the
// running count of Hi-Lo kept over every card a round took, and the bet
// of each round by the true count at its start (the running count per 52
// cards left, floored: the sim's TrueCount{} with RoundFloor) on the ramp
// of hiLoConfig (1 unit; 2 from a true count of 1, 4 from 2, 8 from 3, 12
// from 4). It plays no index: it is the reference of the simulator's Hi-Lo
// with a ramp on the basic strategy (BenchmarkSim's hi-lo-ramp).
type bareCounter struct {
	*bareGame
	tags [11]int8
	rc   int
	bet  [5]int64 // by the true count floored, clamped to 0..4
	bets int64    // the units bet, summed
	// rcAtShuffle is the running count when each shoe was reshuffled
	// (kept for the test, up to its capacity).
	rcAtShuffle []int
	leftAtCut   [][]uint8
}

func newBareCounter(seed uint64) *bareCounter {
	c := &bareCounter{bareGame: newBareGame(Textbook(false), seed), bet: [5]int64{1, 2, 4, 8, 12}}
	for v := 1; v <= 10; v++ {
		c.tags[v] = int8(HiLo.Tags[v])
	}
	return c
}

// play deals rounds, as bareGame.play, betting by the count.
func (c *bareCounter) play(rounds int) {
	g := c.bareGame
	for r := 0; r < rounds; r++ {
		left := len(g.shoe) - g.pos
		tc := int(math.Floor(float64(c.rc) * 52 / float64(left)))
		bet := c.bet[min(max(tc, 0), 4)]
		net, used := g.round(g.shoe[g.pos:])
		for _, v := range g.shoe[g.pos : g.pos+used] {
			c.rc += int(c.tags[v])
		}
		g.pos += used
		g.n++
		x := int64(net) * bet
		g.x += x
		g.xx += x * x
		c.bets += bet
		if g.pos > bareCut {
			if len(c.rcAtShuffle) < cap(c.rcAtShuffle) {
				c.rcAtShuffle = append(c.rcAtShuffle, c.rc)
				c.leftAtCut = append(c.leftAtCut, append([]uint8{g.shoe[0]}, g.shoe[g.pos:]...))
			}
			g.dealtN += int64(g.pos)
			g.shuffle()
			c.rc = 0
		}
	}
}

// TestBareCounterCounts checks the bare counting loop's count and bets: at
// each reshuffle the running count is minus the tags of the cards not seen
// (the burn card and those behind the cut: Hi-Lo is balanced), and the
// ramp bets more than a unit on some rounds but not most.
func TestBareCounterCounts(t *testing.T) {
	c := newBareCounter(7)
	c.rcAtShuffle = make([]int, 0, 100)
	c.play(20000)
	if len(c.rcAtShuffle) < 100 {
		t.Fatalf("%d shoes recorded, want 100", len(c.rcAtShuffle))
	}
	nonzero := 0
	for i, rc := range c.rcAtShuffle {
		unseen := 0
		for _, v := range c.leftAtCut[i] {
			unseen += HiLo.Tags[v]
		}
		if rc != -unseen {
			t.Fatalf("shoe %d: running count %d at the cut, the unseen cards' tags %d", i, rc, unseen)
		}
		if rc != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Error("every shoe's running count 0 at the cut: the count does not move")
	}
	if mean := float64(c.bets) / float64(c.n); mean <= 1.05 || mean >= 3 {
		t.Errorf("mean bet %.3f units, want a ramp's 1.05..3", mean)
	}
}

// BenchmarkBareCountingLoop is the reference of BenchmarkSim's
// vegas-s17/hi-lo-ramp: the bare loop with a Hi-Lo count and the ramp,
// no index plays.
//
//	go test ./sim -run '^$' -bench 'BareLoop|BareCountingLoop|Sim$/^vegas-s17$' -count 6
func BenchmarkBareCountingLoop(b *testing.B) {
	c := newBareCounter(1)
	c.play(1000)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := threadCPU()
	c.play(b.N)
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/round")
}

// hiLoRampConfig is hiLoConfig without the index plays: Hi-Lo and the
// ramp on the basic strategy, the simulator's set-up of
// BenchmarkBareCountingLoop.
func hiLoRampConfig(p *rules.Profile) Config {
	ramp, _ := ParseRamp("1:2,2:4,3:8,4:12")
	return Config{Profile: p, Rounds: 1, Strategy: Textbook(p.DealerHitsSoft17), Count: &HiLo, Ramp: ramp, TrueCount: TrueCount{Round: RoundFloor}}
}
