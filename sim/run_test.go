package sim

import (
	"context"
	"testing"

	"sabot/rules"
)

// TestSameSeedSameResult: the result depends on the seed, not on the number
// of workers (each chunk has its own seed; chunks merge in order), with a
// round count and with a target standard error.
func TestSameSeedSameResult(t *testing.T) {
	for _, name := range []string{"spain", "family"} {
		p := rules.MustLookup(name)
		base := Config{Profile: p, Rounds: 300_000, Seed: 5, ChunkRounds: 1 << 14}
		var first [2]*Result // by Continuous
		for _, w := range []int{1, 2, 3} {
			for i, cont := range []bool{false, true} {
				c := base
				c.Workers, c.Continuous = w, cont
				res, err := Run(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				if first[i] == nil {
					first[i] = res
					continue
				}
				if res.Stats != first[i].Stats {
					t.Errorf("%s (continuous %v): %d workers: EV %v over %d rounds, 1 worker: %v over %d", name, cont, w, res.EV, res.Rounds, first[i].EV, first[i].Rounds)
				}
			}
		}
		// With a target standard error the stop is the same too.
		var se []Stats
		for _, w := range []int{1, 2} {
			c := base
			c.Rounds, c.TargetSE, c.Workers = 0, 0.004, w
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if res.SE > 0.004 {
				t.Errorf("%s: stopped at SE %v above the target", name, res.SE)
			}
			se = append(se, res.Stats)
		}
		if se[0] != se[1] {
			t.Errorf("%s: target SE: the stop depends on the workers", name)
		}
	}
}
