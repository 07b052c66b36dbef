package main

import (
	"slices"
	"strings"
	"testing"

	"sabot/internal/webapi"
	"sabot/rules"
)

// optionValues is every value of an enumerated or bool option, and for an
// integer one the profile's own value with a few others.
func optionValues(p *rules.Profile, o rules.Option) []string {
	switch {
	case o.Values == "bool":
		return []string{"true", "false"}
	case strings.Contains(o.Values, " | "):
		return strings.Split(o.Values, " | ")
	case strings.HasPrefix(o.Values, "integer"):
		own, _ := p.Get(o.Key)
		return []string{own, "0", "1", "2", "3", "7", "9"}
	}
	return nil
}

// Every reading of every profile, under every value of every option that
// carries a reading, is listed by `sabot profiles show` (its rule, option,
// value and text) and by the rules page (its text, its rule and its
// option), and an option read value by value (a reading with a Value, as
// back_follow, insurance_closes, dealer_ace, resplit_hands) has its
// reading at each of its values wherever the profile reads it at its own
// value: no value of a profile's named reading is left without its words.
func TestEveryReadingListed_ES03_VE12(t *testing.T) {
	// The options that carry a reading, and those read value by value,
	// at any value of any built-in profile.
	carries, byValue := map[string]bool{}, map[string]bool{}
	for _, name := range rules.Names() {
		base := rules.MustLookup(name)
		for _, o := range rules.Options() {
			for _, v := range optionValues(base, o) {
				p := base.Clone()
				if p.Set(o.Key, v) != nil || p.Validate() != nil {
					continue
				}
				for _, r := range p.Readings() {
					carries[r.Option] = true
					byValue[r.Option] = byValue[r.Option] || r.Value != ""
				}
			}
		}
	}
	delete(carries, "")
	for _, k := range []string{"back_follow", "insurance_closes", "dealer_ace", "resplit_hands"} {
		if !byValue[k] {
			t.Errorf("%s is not read value by value", k)
		}
	}
	checked := 0
	for _, name := range rules.Names() {
		base := rules.MustLookup(name)
		for _, o := range rules.Options() {
			if !carries[o.Key] {
				continue
			}
			readAt := map[string]bool{} // the values at which the profile reads the option
			for _, v := range optionValues(base, o) {
				p := base.Clone()
				if p.Set(o.Key, v) != nil || p.Validate() != nil {
					continue
				}
				got, _ := p.Get(o.Key)
				show, stderr, code := run(t, "", "profiles", "show", name, "-o", o.Key+"="+v)
				if code != 0 {
					t.Fatalf("profiles show %s -o %s=%s: %d %s", name, o.Key, v, code, stderr)
				}
				for _, k := range []string{o.Key} {
					if !strings.Contains(show, "\n"+k+" ") {
						t.Errorf("profiles show %s leaves out the option %s", name, k)
					}
				}
				page := webapi.PlainRules(1, p)
				for _, r := range p.Readings() {
					checked++
					tag := ""
					switch {
					case r.Value != "":
						tag = " [" + r.Option + "=" + r.Value + "]"
					case r.Option != "":
						tag = " [" + r.Option + "]"
					}
					// A reading of another regulation's rule is cited as
					// this table's rules: OPTION=VALUE (r.Cite).
					cite := r.Cite
					if p.Regulation != "" && !p.OwnRule(r.Rule) && !strings.HasPrefix(cite, rules.TableRules+": ") {
						t.Errorf("%s %s=%s: reading %s%s cited %q, another regulation's rule", name, o.Key, v, r.Rule, tag, cite)
					}
					if !strings.Contains(show, "\n  "+cite+tag+": "+r.Text+"\n") {
						t.Errorf("%s %s=%s: profiles show leaves out the reading %s%s", name, o.Key, v, r.Rule, tag)
					}
					found := false
					for _, l := range page.Readings {
						// The page cites the rule where it is of the table's
						// regulation (a reference profile's page cites none).
						if l.Text == r.Text && l.Topic == cite && (len(l.Rules) == 0 || len(l.Rules) == 1 && l.Rules[0].ID == r.Rule && p.OwnRule(r.Rule)) && (r.Option == "" && len(l.Options) == 0 || slices.Equal(l.Options, []string{r.Option})) {
							found = true
						}
					}
					if !found {
						t.Errorf("%s %s=%s: the rules page leaves out the reading %s%s", name, o.Key, v, r.Rule, tag)
					}
					if r.Option == o.Key {
						readAt[got] = true
						if r.Value != "" && r.Value != got {
							t.Errorf("%s %s=%s: the reading is of %s=%s", name, o.Key, got, o.Key, r.Value)
						}
					}
				}
			}
			// The profile's own reading (at its built-in value) has its
			// words at every other value too.
			own, _ := base.Get(o.Key)
			if !byValue[o.Key] || !readAt[own] {
				continue
			}
			for _, v := range optionValues(base, o) {
				p := base.Clone()
				if p.Set(o.Key, v) != nil || p.Validate() != nil {
					continue
				}
				if got, _ := p.Get(o.Key); !readAt[got] {
					t.Errorf("%s reads %s at %v but not at %s=%s", name, o.Key, keys(readAt), o.Key, got)
				}
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d readings checked", checked)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
