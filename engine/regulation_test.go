package engine

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"sabot/money"
	"sabot/rules"
)

// Every refusal of every profile cites only rules of the table's own
// regulation: no Argentine refusal cites a Spanish or Venetian rule (an
// even-money refusal cited ES-10, VE-16; every insurance refusal AR-20), no
// Spanish one an Argentine or Venetian one (a back bet over the maximum
// cited AR-04, VE-21); a reference profile, of no seed, cites none. Random
// rounds of each profile, and of each with options that open other
// refusals, try every kind of decision by every bettor at every step.
func TestRefusalsCiteTheirOwnRegulation_AR20_ES10_ES11_VE16_VE21(t *testing.T) {
	variants := [][]string{nil, {"max_bet=300"}, {"insurance=false", "even_money=none"}, {"double_after_split=false", "max_hands=2"}}
	seen := map[string]map[string]bool{} // profile: refusals seen, by their reason
	for _, name := range rules.Names() {
		seen[name] = map[string]bool{}
		for _, opts := range variants {
			p := rules.MustLookup(name)
			if err := p.SetAll(opts); err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 12; seed++ {
				refusalsOfRound(t, p, seed, seen[name])
			}
		}
		if len(seen[name]) < 15 {
			t.Errorf("%s: only %d refusals tried: %v", name, len(seen[name]), seen[name])
		}
	}
}

func refusalsOfRound(t *testing.T, p *rules.Profile, seed uint64, seen map[string]bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	check := func(err error) {
		var rf *Refusal
		if err == nil || !errors.As(err, &rf) {
			return
		}
		seen[rf.Why] = true
		if rf.Rule == "" {
			return
		}
		if p.Regulation == "" {
			t.Errorf("%s (no seed): %v cites %s", p.Name, err, rf.Rule)
			return
		}
		for _, id := range strings.Split(rf.Rule, ", ") {
			if !p.OwnRule(id) {
				t.Errorf("%s: %v cites %s, not of its regulation", p.Name, err, id)
			}
		}
	}
	r := New(p)
	r.Reset(NewForced(shuffled(p, seed)))
	players := []string{"ana", "ben", "cy"}
	for _, bet := range []struct {
		who   string
		box   int
		stake money.Amount
	}{{"ana", 1, 0}, {"ana", 1, p.MaxBet + 1}, {"ana", 1, 200}, {"ana", 1, 50}, {"ben", 1, 200}, {"cy", 1, 100}, {"ben", 2, 101}, {"cy", 3, 100}, {"ana", p.Boxes + 1, 100}} {
		check(r.PlaceBet(bet.who, bet.box, bet.stake))
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	check(r.PlaceBet("ana", 4, 100))
	var buf [64]Action
	for steps := 0; r.Phase() != Done && steps < 200; steps++ {
		for k := Hit; k <= Withdraw; k++ {
			for _, who := range append(players, "") {
				for box := 1; box <= 3; box++ {
					for hand := 1; hand <= 2; hand++ {
						for _, stake := range []money.Amount{0, 13, 1_000_000}[:2+int(seed%2)] {
							check(r.Check(Action{Kind: k, Player: who, Box: box, Hand: hand, Stake: stake, Value: 1 + 10*int(stake%2)}))
						}
					}
				}
			}
		}
		legal := r.LegalActions(buf[:0])
		if err := r.Act(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}
