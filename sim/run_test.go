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

// TestConfigStakes_AR04_AR05_ES03_VE03_VE21: the simulator refuses the
// bets a table refuses (rules.StakeBar, rules.BoxBar), with the reason;
// a negative unit is refused where a stake below the minimum stands too
// (VE-18), as every stake that is not positive.
func TestConfigStakes_AR04_AR05_ES03_VE03_VE21(t *testing.T) {
	for _, c := range []struct {
		profile string
		options []string
		setup   func(c *Config)
		want    string // "" for none
	}{
		{"argentina", nil, func(c *Config) { c.BackBets = 1 }, "no back betting at this table (AR-05)"},
		{"venice", nil, func(c *Config) { c.BackBets = 3 }, "3 back bets per box: the table allows 2 (VE-03)"},
		{"venice", nil, func(c *Config) { c.BackBets = -1 }, "-1 back bets per box: the table allows 2 (VE-03)"},
		{"argentina", []string{"min_bet=500"}, func(c *Config) { c.Unit = 400 }, "a unit of 400 is below the table minimum 500 (AR-04)"},
		{"venice", []string{"min_bet=500"}, func(c *Config) { c.Unit = 400 }, ""}, // VE-18
		{"venice", nil, func(c *Config) { c.Unit = -4 }, "a unit of -4 is below the table minimum 1 (VE-21)"},
		{"argentina", []string{"max_bet=500"}, func(c *Config) { c.Unit = 600 }, "a bet of 1 units of 600 exceeds the table maximum 500 (AR-04)"},
		{"spain", []string{"min_bet=500"}, func(c *Config) { c.Unit = 400 }, "a unit of 400 is below the table minimum 500 (this table's rules: min_bet=500)"},
		{"venice", []string{"max_bet=1000"}, func(c *Config) { c.Unit, c.BackBets = 400, 2 }, "3 stakes of 400 on a box exceed the table maximum 1000 (VE-21)"},
		{"venice", []string{"max_bet=1200"}, func(c *Config) { c.Unit, c.BackBets = 400, 2 }, ""},
	} {
		p := rules.MustLookup(c.profile)
		must(t, p.SetAll(c.options))
		cfg := Config{Profile: p, Rounds: 1}
		c.setup(&cfg)
		err := cfg.normalize()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.profile, c.options, err)
		case c.want != "" && (err == nil || err.Error() != ErrConfig.Error()+": "+c.want):
			t.Errorf("%s %v: %v, want %s", c.profile, c.options, err, c.want)
		}
	}
}
