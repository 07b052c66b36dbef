package webapi

import (
	"sabot"
	"slices"
	"strings"
	"testing"

	"sabot/rules"
	"sabot/web"
)

// variants is every built-in profile, and each of them with every option
// set to each of a few values: between them they say every phrase
// PlainRules has.
func variants(t *testing.T) []*rules.Profile {
	var out []*rules.Profile
	for _, name := range rules.Names() {
		base := rules.MustLookup(name)
		out = append(out, base)
		for _, o := range rules.Options() {
			var vals []string
			switch {
			case o.Values == "bool":
				vals = []string{"true", "false"}
			case strings.Contains(o.Values, " | "):
				vals = strings.Split(o.Values, " | ")
			case strings.HasPrefix(o.Values, "integer"):
				vals = []string{"0", "1", "2", "3", "7", "11"}
			}
			for _, v := range vals {
				p := base.Clone()
				if p.Set(o.Key, v) == nil {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// catalogue reads a language's messages of the web client.
func catalogue(t *testing.T, lang string) map[string][]string {
	m, err := web.Messages(lang)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Every phrase, topic and built-in description the rules in plain words
// can say is in the Spanish and Italian catalogues, with no value the
// phrase does not send; a line's text is its phrases' texts.
func TestRulePhrasesTranslated(t *testing.T) {
	phrases := map[string]sabot.Phrase{}
	topicKeys := map[string]bool{}
	for _, p := range variants(t) {
		tr := PlainRules(1, p)
		for _, l := range append(tr.Lines, tr.Readings...) {
			text := ""
			for _, x := range l.Phrases {
				text += x.Text
				if x.Key != "" {
					phrases[x.Key] = x
				} else if strings.TrimSpace(x.Text) != "." {
					t.Errorf("%s: a phrase without a key says %q", p.Name, x.Text)
				}
			}
			if text != l.Text {
				t.Errorf("%s %s: phrases say %q, the text %q", p.Name, l.Key, text, l.Text)
			}
		}
		for _, l := range tr.Lines {
			topicKeys[l.Key] = true
			if topics[l.Key] == "" || l.Topic != topics[l.Key] {
				t.Errorf("%s: topic %q is named %q", p.Name, l.Key, l.Topic)
			}
		}
	}
	if len(phrases) < 60 {
		t.Fatalf("only %d phrases said: the variants miss some", len(phrases))
	}
	for _, lang := range []string{"es", "it"} {
		cat := catalogue(t, lang)
		for key, x := range phrases {
			names, ok := cat["rule."+key]
			if !ok {
				t.Errorf("%s.js lacks rule.%s (%q)", lang, key, x.Text)
				continue
			}
			for _, n := range names {
				if _, ok := x.Params[n]; !ok {
					t.Errorf("%s.js rule.%s uses {%s}, the phrase sends %v", lang, key, n, x.Params)
				}
			}
			for n := range x.Params {
				if !slices.Contains(names, n) {
					t.Errorf("%s.js rule.%s leaves out {%s}", lang, key, n)
				}
			}
		}
		for key := range topicKeys {
			if _, ok := cat["topic."+key]; !ok {
				t.Errorf("%s.js lacks topic.%s", lang, key)
			}
		}
		for name := range rulePrefixes {
			if _, ok := cat["profile."+name]; !ok {
				t.Errorf("%s.js lacks profile.%s", lang, name)
			}
		}
	}
}

// FAM-01, ES-09: family blackjack plays the casino's rules, 6 splits
// included; the rules page says so (it said "up to 4 hands").
func TestFamilySplitsAsTheCasino_FAM01_ES09(t *testing.T) {
	for _, l := range PlainRules(1, rules.MustLookup("family")).Lines {
		if l.Key == "split" && strings.HasPrefix(l.Text, "Split two cards") {
			if !strings.Contains(l.Text, "up to 7 hands") {
				t.Errorf("family's split line: %q", l.Text)
			}
			return
		}
	}
	t.Error("family has no split line")
}

// ES-11: spain's rules page says the insurance stays open until the first
// third card (insurance_closes=third-card); venice's offer, made once, says
// nothing more.
func TestInsuranceLineSaysWhenItCloses_ES11(t *testing.T) {
	for name, want := range map[string]bool{"spain": true, "family": true, "venice": false} {
		for _, l := range PlainRules(1, rules.MustLookup(name)).Lines {
			if l.Key == "insurance" && strings.Contains(l.Text, "until a player is dealt a third card") != want {
				t.Errorf("%s's insurance line: %q", name, l.Text)
			}
		}
	}
}

// AR-01, AR-05, AR-20: the rules page of an argentina table dealt from 4
// decks, with back bets and insurance, says which rule each departs from,
// with the rule's own words, and marks the rule where it is cited (the
// shoe's line quotes «como mínimo 8 (ocho) mazos» beside 4 decks).
func TestRulesPageSaysDepartures_AR01_AR05_AR20(t *testing.T) {
	p := rules.MustLookup("argentina")
	if err := p.SetAll([]string{"decks=4", "back_bets_per_box=2", "insurance=true"}); err != nil {
		t.Fatal(err)
	}
	tr := PlainRules(1, p)
	var ids []string
	for _, d := range tr.Departures {
		ids = append(ids, d.Rule.ID)
		if d.Rule.Seed == nil || !strings.HasPrefix(d.Text, d.Rule.ID+": "+d.Option+"="+d.Value) {
			t.Errorf("%+v: no seed words or text", d)
		}
	}
	if !slices.Equal(ids, []string{"AR-01", "AR-05", "AR-20"}) {
		t.Errorf("departures %v", ids)
	}
	marked := false
	for _, l := range tr.Lines {
		for _, r := range l.Rules {
			if r.ID == "AR-01" {
				marked = len(r.Departs) == 1 && strings.Contains(r.Departs[0], "decks=4")
			}
		}
	}
	if !marked {
		t.Error("the shoe's line cites AR-01 without its departure")
	}
	if d := PlainRules(1, rules.MustLookup("argentina")).Departures; d != nil {
		t.Errorf("argentina departs: %v", d)
	}
}
