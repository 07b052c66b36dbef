package webapi

import (
	"sort"
	"strings"
)

// RegulationRules is every rule of a built-in profile's regulations (by
// rulePrefixes), in ID order, each with its wording and its seed's words
// where RULES.md's seed has them: the rules document of the certification
// kit. A profile without a regulation (a reference profile) has none.
func RegulationRules(profile string) []RuleRef {
	var out []RuleRef
	for id, text := range ruleText {
		for _, pre := range rulePrefixes[profile] {
			if strings.HasPrefix(id, pre) {
				ref := RuleRef{ID: id, Text: text}
				if s, ok := seedText[id]; ok {
					ref.Seed = &s
				}
				out = append(out, ref)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return ruleLess(out[i].ID, out[j].ID) })
	return out
}

// ruleLess orders rule IDs by prefix as the profile lists them, then number.
func ruleLess(a, b string) bool {
	pa, na, _ := strings.Cut(a, "-")
	pb, nb, _ := strings.Cut(b, "-")
	if pa != pb {
		return pa < pb
	}
	if len(na) != len(nb) {
		return len(na) < len(nb)
	}
	return na < nb
}
