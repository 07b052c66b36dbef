package sim_test

import (
	"bytes"
	"context"
	"math"
	"testing"

	"sabot/analysis"
	"sabot/rules"
	"sabot/sim"
)

// basicOf returns the analysis package's exact total-dependent basic
// strategy for a profile, through the strategy CSV format, and its exact EV
// off the top of a full shoe.
func basicOf(t *testing.T, p *rules.Profile) (*sim.StrategyCard, float64) {
	t.Helper()
	res, err := analysis.Analyze(context.Background(), p, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.Basic.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	tab, err := sim.ParseStrategyCard(&b)
	if err != nil {
		t.Fatalf("the analysis card does not parse: %v", err)
	}
	return tab, res.TD.EV
}

// TestContinuousShuffleMatchesExactEV: with the whole shoe shuffled back
// before every round, each round is dealt off the top of a full shoe, which
// is what package analysis computes exactly. The simulated EV of the
// analysis's own basic strategy must match its exact EV within 3 standard
// errors, for every built-in profile (and the pontoon options of family,
// PON-01, PON-02). With the profile's cut card the difference is the
// cut-card effect, logged.
func TestContinuousShuffleMatchesExactEV(t *testing.T) {
	rounds := int64(1_500_000)
	if *sim.Long {
		rounds = 40_000_000
	}
	type tc struct {
		name    string
		options []string
	}
	var cases []tc
	for _, n := range rules.Names() {
		cases = append(cases, tc{n, nil})
	}
	cases = append(cases, tc{"family", []string{"five_card_21=true", "three_sevens=true"}})
	for _, c := range cases {
		name := c.name
		if c.options != nil {
			name += "+pontoon"
		}
		t.Run(name, func(t *testing.T) {
			p := rules.MustLookup(c.name)
			if err := p.SetAll(c.options); err != nil {
				t.Fatal(err)
			}
			tab, exact := basicOf(t, p)
			res, err := sim.Run(context.Background(), sim.Config{Profile: p, Strategy: tab, Continuous: true, Rounds: rounds, Seed: 11})
			if err != nil {
				t.Fatal(err)
			}
			z := (res.EV - exact) / res.SE
			t.Logf("exact %+.5f, simulated %+.5f ± %.5f (z %+.2f, %d rounds)", exact, res.EV, res.SE, z, res.Rounds)
			if math.Abs(z) > 3 {
				t.Errorf("continuous shuffle: simulated EV %+.5f ± %.5f is %.1f SE from the exact %+.5f", res.EV, res.SE, z, exact)
			}
			if *sim.Long {
				cut, err := sim.Run(context.Background(), sim.Config{Profile: p, Strategy: tab, Rounds: rounds, Seed: 12})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("cut card: simulated %+.5f ± %.5f: cut-card effect %+.5f ± %.5f", cut.EV, cut.SE, cut.EV-exact, cut.SE)
			}
		})
	}
}
