package report

import (
	"maps"
	"slices"
	"strings"

	"sabot"
	"sabot/rules"
)

// RulesLabel names a rule set by its profile and the options in which it
// differs from it, "spain · decks=4 · das=false": the one label every
// report gives a rule set, so that two rule sets of one profile are not
// both "vegas-s17". Only the options that decide the game (those of its
// GameHash) are named: limits and the table's own options do not make
// another rule set. A profile with no such option is its name alone.
func RulesLabel(profile string, options map[string]string) string {
	full, err := sabot.ProfileOf(profile, options)
	if err != nil {
		return profile
	}
	base, err := rules.Lookup(profile)
	if err != nil {
		return profile
	}
	parts := []string{profile}
	for _, k := range slices.Sorted(maps.Keys(options)) {
		v, err := full.Get(k)
		if err != nil {
			continue // the table's own options (shoe, staff…) are not rules
		}
		if was, _ := base.Get(k); was == v {
			continue
		}
		one, err := rules.Lookup(profile)
		if err != nil || one.Set(k, v) != nil || one.GameHash() == base.GameHash() {
			continue // a limit, or a layout: not another game
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " · ")
}
