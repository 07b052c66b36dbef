package engine

import (
	"errors"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"sabot/money"
	"sabot/rules"
)

// inputRefusals are the refusals of a request that names nothing at the
// table (a box it does not have, an action that does not exist): no rule of
// any regulation is in question, so they cite none.
// So are those of a request sent when the round is not where a decision
// is taken: before the deal, after the settlement, between cards.
var inputRefusals = []string{"no such box", "unknown action", "the table has boxes 1 to", "a bet needs a player",
	"the cards have not been dealt", "the round is over", "the round waits for the next card", "no optional window is open"}

func isInputRefusal(ref *Refusal) bool {
	for _, s := range inputRefusals {
		if strings.HasPrefix(ref.Why, s) {
			return true
		}
	}
	return false
}

// citeOK says what is wrong with a rule refusal's citation at a profile, or
// "": it names a rule of the profile's own regulation, or this table's
// rules with the option that decides it.
func citeOK(p *rules.Profile, ref *Refusal) string {
	if ref.Rule == "" {
		return "cites no rule"
	}
	if ref.Rule == rules.TableRules && p.Regulation == "" {
		return "" // a reference profile's structural rule: no option decides it
	}
	if opt, ok := strings.CutPrefix(ref.Rule, rules.TableRules+": "); ok {
		key, _, _ := strings.Cut(opt, "=")
		if _, err := p.Get(key); err != nil {
			return "cites an option the profile does not have"
		}
		return ""
	}
	for _, id := range strings.Split(ref.Rule, ", ") {
		if p.Regulation == "" || !p.OwnRule(id) {
			return "cites " + id + ", not a rule of this table's regulation"
		}
	}
	return ""
}

// probeRound plays rounds of p with random bets and random legal decisions
// and, at every step, asks the engine about every action a player could
// send (each kind, by each player, on each box and hand, at several stakes
// and values), collecting the refusals.
func probeRound(p *rules.Profile, seed uint64, seen map[string]*Refusal) {
	rng := rand.New(rand.NewPCG(seed, seed*7+1))
	r := New(p)
	r.Reset(NewForced(shuffled(p, seed)))
	players := []string{"ana", "ben", "cy"}
	stakes := []money.Amount{-1, 0, 1, p.MinBet - 1, p.MinBet, 2 * p.MinBet, p.MaxBet, p.MaxBet + 1}
	note := func(err error) {
		var ref *Refusal
		if errors.As(err, &ref) {
			key := ref.Why + " | " + ref.Rule
			if _, ok := seen[key]; !ok {
				seen[key] = ref
			}
		}
	}
	type placed struct {
		player string
		box    int
		stake  money.Amount
	}
	var bets []placed
	for i, n := 0, 1+rng.IntN(5); i < n; i++ {
		for _, s := range stakes { // each probe on a copy of the bets so far
			q := New(p)
			for _, b := range bets {
				q.PlaceBet(b.player, b.box, b.stake)
			}
			note(q.PlaceBet(players[rng.IntN(3)], 1+rng.IntN(min(p.Boxes, 3)), s))
		}
		b := placed{players[rng.IntN(3)], 1 + rng.IntN(min(p.Boxes, 3)), p.MinBet * money.Amount(1+rng.IntN(3))}
		if r.PlaceBet(b.player, b.box, b.stake) == nil {
			bets = append(bets, b)
		}
	}
	if len(r.Bets()) == 0 {
		r.PlaceBet("ana", 1, p.MinBet)
	}
	if err := r.Start(); err != nil {
		return
	}
	var buf [64]Action
	for steps := 0; r.Phase() != Done && steps < 200; steps++ {
		for k := Hit; k <= Declare; k++ {
			for _, pl := range players {
				for box := 0; box <= min(p.Boxes, 3)+1; box++ {
					for hand := 1; hand <= 3; hand++ {
						stakes, values := []money.Amount{0}, []int{0}
						switch k {
						case Double, Split, Insure, Challenge:
							stakes = []money.Amount{0, 1, p.MinBet / 2, p.MinBet, 4 * p.MaxBet}
						case Declare:
							values = []int{1, 11, 5}
						}
						for _, st := range stakes {
							for _, v := range values {
								note(r.Check(Action{Kind: k, Player: pl, Box: box, Hand: hand, Stake: st, Value: v}))
							}
						}
					}
				}
			}
		}
		note(r.Check(Action{Kind: Withdraw, Player: "ana", Box: 1, Hand: 1}))
		legal := r.LegalActions(buf[:0])
		if len(legal) == 0 {
			return
		}
		r.Act(legal[rng.IntN(len(legal))])
	}
}

// Every refusal of a rule names a rule of the table's own regulation, or
// this table's rules with the option that decides it: no refusal at one
// regulation's table cites another's (an even-money refusal at argentina
// cited ES-10, VE-16; a back bet over the maximum at spain AR-04, VE-21),
// and none cites nothing (a surrender, a challenge or a declaration at a
// table without them, the turn's order, Spain's minimum stake). A reference
// profile, of no seed, cites this table's rules. The probe reaches the
// refusals the engine words for a bet and a decision, at every built-in
// profile and at variants that open other refusals.
func TestEveryRefusalNamesItsOwnRule_AR20_ES10_ES11_VE16_VE21(t *testing.T) {
	common := [][]string{nil, {"max_bet=300"}, {"insurance=false", "even_money=none"}, {"double_after_split=false", "max_hands=2"}}
	variants := map[string][][]string{
		"argentina": {{"challenge=false"}, {"declare_initial_ace=false"}},
		"spain":     {{"back_bets_per_box=0"}},
		"vegas-s17": {{"surrender=late"}},
	}
	for _, name := range rules.Names() {
		for _, v := range append(common, variants[name]...) {
			p := rules.MustLookup(name).Clone()
			if err := p.SetAll(v); err != nil {
				t.Fatal(err)
			}
			seen := map[string]*Refusal{}
			for seed := uint64(1); seed <= 12; seed++ {
				probeRound(p, seed, seen)
			}
			keys := make([]string, 0, len(seen))
			for k := range seen {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			rulesSeen := 0
			for _, k := range keys {
				ref := seen[k]
				if isInputRefusal(ref) {
					continue
				}
				rulesSeen++
				if why := citeOK(p, ref); why != "" {
					t.Errorf("%s %v: %q %s", name, v, ref.Error(), why)
				}
			}
			if rulesSeen < 15 {
				t.Errorf("%s %v: the probe met only %d rule refusals", name, v, rulesSeen)
			}
		}
	}
}
