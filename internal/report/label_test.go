package report

import "testing"

// A rule set is labelled by its profile and the options in which it
// differs from it: two rule sets of one profile are not
// both "vegas-s17"; a limit or an option set to the profile's own value
// makes no other label.
func TestRulesLabelNamesTheOptionsThatDiffer(t *testing.T) {
	cases := []struct {
		profile string
		options map[string]string
		want    string
	}{
		{"vegas-s17", nil, "vegas-s17"},
		{"vegas-s17", map[string]string{"min_bet": "500", "max_bet": "50000"}, "vegas-s17"},
		{"vegas-s17", map[string]string{"dealer_hits_soft_17": "true"}, "vegas-s17 · dealer_hits_soft_17=true"},
		{"vegas-s17", map[string]string{"decks": "2", "min_bet": "500"}, "vegas-s17 · decks=2"},
		{"nonesuch", map[string]string{"decks": "2"}, "nonesuch"},
	}
	for _, c := range cases {
		if got := RulesLabel(c.profile, c.options); got != c.want {
			t.Errorf("RulesLabel(%s, %v) = %q, want %q", c.profile, c.options, got, c.want)
		}
	}
	if a, b := RulesLabel("vegas-s17", nil), RulesLabel("vegas-s17", map[string]string{"decks": "2"}); a == b {
		t.Errorf("two rule sets of vegas-s17 both %q", a)
	}
}
