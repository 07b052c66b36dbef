package sim

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"sabot/rules"
)

// TestShardsMerge: the parts of a run (Config.Shard of Shards) merged are
// the single run over the same seeds, sum for sum and figure for figure:
// a flat bettor (the plain round), a counter with a ramp (the figures by
// count) and back bets (the engine's round), with a number of rounds that
// is not a whole number of chunks, and more shards than some have chunks.
func TestShardsMerge(t *testing.T) {
	hilo, err := LookupSystem("hi-lo")
	if err != nil {
		t.Fatal(err)
	}
	ramp, err := ParseRamp("2:2,3:4,4:8")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"vegas-s17 flat", Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 90_001}},
		{"argentina", Config{Profile: rules.MustLookup("argentina"), Rounds: 50_000}},
		{"vegas-s17 hi-lo", Config{Profile: rules.MustLookup("vegas-s17"), Rounds: 70_000, Count: &hilo, Ramp: ramp}},
		{"spain back bets", Config{Profile: rules.MustLookup("spain"), Rounds: 12_000, BackBets: 1, BackFollow: true}},
		{"family continuous", Config{Profile: rules.MustLookup("family"), Rounds: 40_000, Continuous: true}},
	} {
		cfg := c.cfg
		cfg.Seed, cfg.ChunkRounds, cfg.Workers = 11, 4096, 2
		whole, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 3, 7, 40} {
			var parts []Stats
			for k := n; k >= 1; k-- { // in any order
				sc := cfg
				sc.Shard, sc.Shards, sc.Workers = k, n, 1+k%2
				r, err := Run(context.Background(), sc)
				if err != nil {
					t.Fatal(err)
				}
				// Through the shard file's JSON and back.
				b, err := json.Marshal(r.Stats)
				if err != nil {
					t.Fatal(err)
				}
				var s Stats
				if err := json.Unmarshal(b, &s); err != nil {
					t.Fatal(err)
				}
				parts = append(parts, s)
			}
			m, err := Merge(cfg, parts)
			if err != nil {
				t.Fatal(err)
			}
			if m.Stats != whole.Stats {
				t.Errorf("%s, %d shards: the merged sums differ from the single run's:\n%+v\n%+v", c.name, n, m.Stats, whole.Stats)
			}
			a, b := *m, *whole
			a.cfg, b.cfg, a.Paths, b.Paths = Config{}, Config{}, nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s, %d shards: the merged figures differ: EV %v, single run %v", c.name, n, m.EV, whole.EV)
			}
			if !m.Stats.Exact() {
				t.Errorf("%s: sums past 2⁵³", c.name)
			}
		}
	}
}

// TestShardChunks: the shards of a run cover its chunks once, in order.
func TestShardChunks(t *testing.T) {
	for _, chunks := range []int{0, 1, 5, 64, 15259} {
		for _, n := range []int{1, 2, 3, 16, 100} {
			next := 0
			for k := 1; k <= n; k++ {
				first, end := ShardChunks(chunks, k, n)
				if first != next || end < first {
					t.Fatalf("%d chunks, shard %d/%d: %d to %d after %d", chunks, k, n, first, end, next)
				}
				next = end
			}
			if next != chunks {
				t.Fatalf("%d chunks in %d shards: end at %d", chunks, n, next)
			}
		}
	}
}

// TestShardRefused: a shard outside 1 to N, or with a target SE.
func TestShardRefused(t *testing.T) {
	p := rules.MustLookup("vegas-s17")
	for _, c := range []Config{
		{Profile: p, Rounds: 10, Shard: 0, Shards: 2},
		{Profile: p, Rounds: 10, Shard: 3, Shards: 2},
		{Profile: p, Rounds: 10, Shard: 1, Shards: -1},
		{Profile: p, Rounds: 10, TargetSE: 0.01, Shard: 1, Shards: 2},
	} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("shard %d/%d (target SE %v): accepted", c.Shard, c.Shards, c.TargetSE)
		}
	}
}
