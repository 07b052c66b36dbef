package rules

import (
	"slices"
	"strings"
	"testing"
)

// A built-in profile of a seed keeps every value its regulation fixes.
func TestBuiltinsDepartFromNothing(t *testing.T) {
	for _, n := range Names() {
		if d := MustLookup(n).Departures(); len(d) > 0 {
			t.Errorf("%s departs from its own regulation: %v", n, d)
		}
	}
	for _, reg := range []string{"argentina", "spain", "family", "venice"} {
		if len(RegulatedValues(reg)) < 10 {
			t.Errorf("%s: only %d regulated values", reg, len(RegulatedValues(reg)))
		}
		for _, r := range RegulatedValues(reg) {
			if _, err := MustLookup(reg).Get(r.Option); err != nil || r.Want == "" || !MustLookup(reg).OwnRule(r.Rule) {
				t.Errorf("%s: %+v: %v (a regulated value names an option and a rule of its own regulation)", reg, r, err)
			}
		}
	}
}

// AR-01, AR-05, AR-20: an argentina table dealt from 4 decks, with back
// bets or insurance says which rule it departs from and how; the same
// options at a table whose regulation allows them depart from nothing.
func TestDepartures_AR01_AR05_AR20(t *testing.T) {
	p := MustLookup("argentina")
	if err := p.SetAll([]string{"decks=4", "back_bets_per_box=2", "insurance=true"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range p.Departures() {
		got = append(got, d.String())
	}
	want := []string{
		"AR-01: decks=4, the regulation asks at least 8 («como mínimo 8 (ocho) mazos»)",
		"AR-05: back_bets_per_box=2, the regulation asks 0 («No se permitirán apuestas de Jugadores de pie»)",
		"AR-20: insurance=true, the regulation asks false: the regulation's only seguro is the Desafío",
	}
	if !slices.Equal(got, want) {
		t.Errorf("departures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A profile file keeps its base's regulation, and its departures.
	q := p.Clone()
	q.Name = "my-argentina"
	if len(q.Departures()) != 3 {
		t.Errorf("a renamed argentina: %v", q.Departures())
	}
	// The reference profiles follow no regulation: nothing to depart from.
	v := MustLookup("vegas-s17")
	v.SetAll([]string{"decks=4", "back_bets_per_box=2"})
	if d := v.Departures(); len(d) != 0 {
		t.Errorf("vegas-s17: %v", d)
	}
}

// ES-09, VE-16, FAM-01: each regulation's table of values is its own.
func TestDepartures_ES09_VE16_FAM01(t *testing.T) {
	for _, c := range []struct{ profile, set, rule string }{
		{"spain", "split_blackjack=blackjack-even", "ES-09"},
		{"spain", "decks=8", "EG-02"},
		{"family", "decks=2", "FAM-01"},
		{"family", "split_blackjack=blackjack-even", "ES-09"},
		{"venice", "even_money=ace", "VE-16"},
		{"venice", "decks=8", "VE-01"},
	} {
		p := MustLookup(c.profile)
		if _, err := p.Override([]string{c.set}); err != nil {
			t.Fatalf("%s %s: %v", c.profile, c.set, err)
		}
		d := p.Departures()
		if len(d) != 1 || d[0].Rule != c.rule {
			t.Errorf("%s %s: %v, want one departure from %s", c.profile, c.set, d, c.rule)
		}
	}
	// family's pontoon variants are its own options, spain's a departure.
	f, s := MustLookup("family"), MustLookup("spain")
	f.Set("five_card_21", "true")
	s.Set("five_card_21", "true")
	if len(f.Departures()) != 0 || len(s.Departures()) != 1 {
		t.Errorf("five_card_21: family %v, spain %v", f.Departures(), s.Departures())
	}
}

// The dealer who plays on when no live hand is left: venice's «deve portare
// a termine il suo, applicando obbligatoriamente “la regola del banco”»
// (VE-08) and argentina's dealer who draws nothing «Cuando todos los
// Jugadores se pasaren de puntaje» (AR-14) are the regulations' own words,
// so the other value departs; spain's ES-05 reading is a reading, no
// departure.
func TestDealerPlaysDepartures_AR14_VE08(t *testing.T) {
	for _, c := range []struct{ name, value, want string }{
		{"venice", "as-needed", "VE-08: dealer_plays=as-needed"},
		{"venice", "unless-all-bust", "VE-08: dealer_plays=unless-all-bust"},
		{"venice", "always", ""},
		{"argentina", "always", "AR-14: dealer_plays=always"},
		{"argentina", "unless-all-bust", ""},
		{"spain", "as-needed", ""},
	} {
		p := MustLookup(c.name)
		if err := p.Set("dealer_plays", c.value); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range p.Departures() {
			got = append(got, d.String())
		}
		switch {
		case c.want == "" && len(got) != 0:
			t.Errorf("%s dealer_plays=%s departs: %q", c.name, c.value, got)
		case c.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], c.want+", the regulation asks ")):
			t.Errorf("%s dealer_plays=%s: departures %q, want %s", c.name, c.value, got, c.want)
		}
	}
}
