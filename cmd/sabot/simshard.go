package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"sabot/sim"
)

// shardFormat names the shard file's format.
const shardFormat = "sabot-sim-shard/1"

// shardFile is what `sabot sim --shard K/N` writes: the run's arguments (to
// rebuild its configuration), which part it is, and its sums.
type shardFile struct {
	Format  string    `json:"format"`
	Version string    `json:"version"`
	Args    []string  `json:"args"` // the profile and every flag that changes the result
	Profile string    `json:"profile"`
	Hash    string    `json:"profile_hash"`
	Seed    uint64    `json:"seed"`
	Rounds  int64     `json:"rounds_total"`
	Shard   int       `json:"shard"`
	Shards  int       `json:"shards"`
	Chunks  [2]int    `json:"chunks"` // first, end (excluded)
	Seconds float64   `json:"seconds"`
	Stats   sim.Stats `json:"stats"`
}

// parseShard reads --shard K/N.
func parseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, refused("sim: --shard %q: want K/N, 1 ≤ K ≤ N, e.g. 3/16", s)
	}
	return k, n, nil
}

// notInShard are the flags that do not change a run's sums: they are not
// recorded in a shard file, and may differ between the shards.
var notInShard = map[string]bool{"shard": true, "workers": true, "json": true, "progress": true, "cpuprofile": true, "chart": true}

// shardArgs are the profile and the flags given that change the result, as
// arguments `sabot sim` parses again.
func shardArgs(cmd *cobra.Command, profile string) []string {
	args := []string{profile}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if notInShard[f.Name] {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return args
}

func writeShard(e *env, cmd *cobra.Command, profile string, cfg sim.Config, res *sim.Result, elapsed time.Duration) error {
	chunk := int64(sim.DefaultChunkRounds)
	first, end := sim.ShardChunks(int((cfg.Rounds+chunk-1)/chunk), cfg.Shard, cfg.Shards)
	out := shardFile{Format: shardFormat, Version: version(), Args: shardArgs(cmd, profile),
		Profile: cfg.Profile.Name, Hash: cfg.Profile.Hash(), Seed: cfg.Seed, Rounds: cfg.Rounds,
		Shard: cfg.Shard, Shards: cfg.Shards, Chunks: [2]int{first, end}, Seconds: elapsed.Seconds(), Stats: res.Stats}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

// newSimMergeCmd is `sabot sim merge FILES…`: the shards of one run merged
// into its report. parent's flags are parsed again from the shards'
// arguments, and build reads them as for a run.
func newSimMergeCmd(e *env, parent *cobra.Command,
	build func(*cobra.Command, []string) (sim.Config, *sim.StrategyCard, error),
	report func(*sim.Result, *sim.StrategyCard, sim.Config, bool, time.Duration) error) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "merge FILE…",
		Short: "Merge the shards of a run (sabot sim --shard K/N) into its report: the same sums and figures as the single run",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, files []string) error {
			if len(files) == 0 {
				return refused("sim merge: give the shard files (the outputs of sabot sim … --shard K/N)")
			}
			var shards []shardFile
			for _, name := range files {
				data, err := os.ReadFile(name)
				if err != nil {
					return refused("sim merge: %v", err)
				}
				var s shardFile
				if err := json.Unmarshal(data, &s); err != nil || s.Format != shardFormat {
					return refused("sim merge: %s is not a shard file (%s)", name, shardFormat)
				}
				shards = append(shards, s)
			}
			s0 := shards[0]
			seen := make([]string, s0.Shards+1)
			for i, s := range shards {
				switch {
				case strings.Join(s.Args, "\x00") != strings.Join(s0.Args, "\x00") || s.Shards != s0.Shards || s.Hash != s0.Hash:
					return refused("sim merge: %s and %s are shards of different runs (%s; %s)", files[i], files[0], strings.Join(s.Args, " "), strings.Join(s0.Args, " "))
				case s.Shard < 1 || s.Shard > s.Shards:
					return refused("sim merge: %s: shard %d of %d", files[i], s.Shard, s.Shards)
				case seen[s.Shard] != "":
					return refused("sim merge: shard %d/%d twice: %s and %s", s.Shard, s.Shards, seen[s.Shard], files[i])
				}
				seen[s.Shard] = files[i]
			}
			var missing []string
			for k := 1; k <= s0.Shards; k++ {
				if seen[k] == "" {
					missing = append(missing, strconv.Itoa(k))
				}
			}
			if len(missing) > 0 {
				return refused("sim merge: shards %s of %d missing", strings.Join(missing, ", "), s0.Shards)
			}
			if err := parent.Flags().Parse(s0.Args[1:]); err != nil {
				return refused("sim merge: the shards' arguments: %v", err)
			}
			parent.SetContext(cmd.Context())
			cfg, tab, err := build(parent, s0.Args[:1])
			if err != nil {
				return err
			}
			if h := cfg.Profile.Hash(); h != s0.Hash {
				return refused("sim merge: profile %s here has hash %s, the shards' %s", s0.Args[0], h, s0.Hash)
			}
			parts := make([]sim.Stats, len(shards))
			var secs float64
			for i, s := range shards {
				parts[i] = s.Stats
				secs += s.Seconds
			}
			res, err := sim.Merge(cfg, parts)
			if err != nil {
				if errors.Is(err, sim.ErrConfig) {
					return refused("sim merge: %v", err)
				}
				return failed("sim merge: %v", err)
			}
			if !res.Stats.Exact() {
				fmt.Fprintln(e.stderr, "note: a sum of squares passed 2^53: the merge equals the single run to rounding")
			}
			return report(res, tab, cfg, asJSON, time.Duration(secs*float64(time.Second)))
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}
