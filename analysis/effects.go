package analysis

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"sabot/rules"
)

// Effect is what changing one option of a profile does to the player's
// expectation, as in the published rule-variation tables.
type Effect struct {
	Option string   // the option's key
	Value  string   // its changed value
	Rules  []string // the rule IDs the option implements
	// EV is the player's expectation per initial unit under the changed
	// profile, Delta its change from the profile's (positive helps the
	// player), both for the strategy asked.
	EV, Delta float64
}

// variations lists, for each option that can change the expectation, the
// values to try against a profile. Options of the table service (limits,
// boxes, the cut card) change nothing in a round off the top of a full
// shoe and are left out, and so are the options a player who plays best
// never uses, whose effect is exactly zero: insurance and even money (never
// worth taking off the top: see Result.InsuranceEV), the challenge (AR-10:
// see Result.Challenge), must_draw_at_most (VE-06: hitting 11 or less is
// never worse than standing, see solver.standWorthy), stand_on_21 (a hand
// of 21 ends anyway) and split_ten_ace_choice (VE-13: 21 beats any play of
// 11).
var variations = []struct {
	key    string
	values []string
}{
	{"decks", []string{"1", "2", "6", "8"}},
	{"dealer_hits_soft_17", []string{"true", "false"}},
	{"hole_card", []string{"peek", "no-peek", "none"}},
	{"dealer_blackjack_takes", []string{"all", "original"}},
	{"blackjack_pays", []string{"3:2", "6:5"}},
	{"double_on", []string{"any", "9-11", "10-11", "11"}},
	{"double_after_split", []string{"true", "false"}},
	{"max_hands", []string{"1", "2", "3", "4"}},
	{"resplit_aces", []string{"true", "false"}},
	{"hit_split_aces", []string{"true", "false"}},
	{"split_blackjack", []string{"21", "blackjack-even"}},
	{"surrender", []string{"none", "late", "early"}},
	{"declare_initial_ace", []string{"true", "false"}},
	{"five_card_21", []string{"true", "false"}},
	{"three_sevens", []string{"true", "false"}},
}

// variants returns the profiles to compare with p: each option changed
// alone to each of its other values, where the change is valid and can
// matter. Options of the shoe that the analysis ignores are adjusted so
// that a smaller shoe stays valid.
func variants(p *rules.Profile) []struct {
	key, value string
	p          *rules.Profile
} {
	var out []struct {
		key, value string
		p          *rules.Profile
	}
	for _, v := range variations {
		cur, err := p.Get(v.key)
		if err != nil {
			continue
		}
		for _, val := range v.values {
			if val == cur {
				continue
			}
			q := p.Clone()
			if err := q.Set(v.key, val); err != nil {
				continue
			}
			switch v.key {
			case "decks":
				q.CutCardReserve, q.MinCut, q.BurnCards = 0, 0, 0
				if q.MaxHands > 4*q.Decks {
					q.MaxHands = 4 * q.Decks
				}
			case "dealer_blackjack_takes":
				if q.HoleCard == rules.Peek {
					continue // nothing is at stake after a peek
				}
			case "resplit_aces":
				if q.MaxHands <= 2 {
					continue
				}
			case "max_hands":
				if n, _ := strconv.Atoi(val); n > 4*q.Decks {
					continue
				}
			}
			if q.Validate() != nil {
				continue
			}
			out = append(out, struct {
				key, value string
				p          *rules.Profile
			}{v.key, val, q})
		}
	}
	return out
}

// Effects analyses p and each single-option variation of it and returns
// the change each makes to the expectation under strategy k. Progress, if
// set, counts the analyses.
func Effects(ctx context.Context, p *rules.Profile, k StrategyKind, o Options) ([]Effect, error) {
	vs := variants(p)
	total := len(vs) + 1
	sub := o
	sub.Progress = nil
	base, err := Analyze(ctx, p, sub)
	if err != nil {
		return nil, err
	}
	if o.Progress != nil {
		o.Progress(1, total)
	}
	opts := map[string][]string{}
	for _, opt := range rules.Options() {
		opts[opt.Key] = opt.Rules
	}
	// Two analyses in flight keep both cores busy while one finishes its
	// last up cards.
	out := make([]Effect, len(vs))
	errs := make([]error, len(vs))
	sem := make(chan struct{}, 2)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done = 1
	)
	for i, v := range vs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r, err := Analyze(ctx, v.p, sub)
			if err != nil {
				errs[i] = fmt.Errorf("%s=%s: %w", v.key, v.value, err)
				return
			}
			ev := r.Summary(k).EV
			out[i] = Effect{Option: v.key, Value: v.value, Rules: opts[v.key], EV: ev, Delta: ev - base.Summary(k).EV}
			mu.Lock()
			done++
			if o.Progress != nil {
				o.Progress(done, total)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
