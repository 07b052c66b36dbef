package certify

import (
	"encoding/json"
	"strings"
	"testing"

	"sabot/rules"
)

// AR-01, AR-05, AR-20: the kit of an argentina variation dealt from 4
// decks, with back bets and insurance, says on the PAR sheet (its JSON and
// every document's identification block) and in the rules document which
// rules of its regulation it departs from, and how; the built-in profile's
// kit says nothing of the kind.
func TestKitSaysDepartures_AR01_AR05_AR20(t *testing.T) {
	p := rules.MustLookup("argentina")
	if err := p.SetAll([]string{"decks=4", "back_bets_per_box=2", "insurance=true"}); err != nil {
		t.Fatal(err)
	}
	k := &Kit{Profile: p, Meta: Meta{Profile: p.Name}, StrategyCSV: "kind,hand,up,action\n"}
	var par struct {
		Departures []string `json:"departures"`
	}
	b, _ := json.Marshal(k.parJSON())
	json.Unmarshal(b, &par)
	if len(par.Departures) != 3 || !strings.HasPrefix(par.Departures[0], "AR-01: decks=4") || !strings.HasPrefix(par.Departures[2], "AR-20: insurance=true") {
		t.Errorf("par-sheet.json departures: %q", par.Departures)
	}
	n := 0
	for _, r := range metaRows(k.Meta, p) {
		if r[0] == "departs from argentina" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d departures in the documents' identification, want 3", n)
	}
	for _, lang := range k.languages() {
		doc, err := k.rulesDoc(lang)
		if err != nil {
			t.Fatal(err)
		}
		html := doc.HTML()
		if len(doc.Departures) != 3 || !strings.Contains(html, words[lang]["departs"]) || !strings.Contains(html, "AR-05: back_bets_per_box=2") {
			t.Errorf("%s rules document: %d departures", lang, len(doc.Departures))
		}
	}
	plain := &Kit{Profile: rules.MustLookup("argentina")}
	if d := plain.departures(); d != nil {
		t.Errorf("argentina's kit departs: %v", d)
	}
}

// AR-14 at spain: the kit's rules document cites a reading of another
// regulation's rule as this table's rules, in the document's language, and
// never under the other regulation's ID.
func TestKitReadingUnderTheTablesRules_AR14(t *testing.T) {
	p := rules.MustLookup("spain")
	if err := p.Set("dealer_plays", "as-needed"); err != nil {
		t.Fatal(err)
	}
	k := &Kit{Profile: p, Meta: Meta{Profile: p.Name}, StrategyCSV: "kind,hand,up,action\n"}
	want := map[string]string{"es": "las reglas de esta mesa: dealer_plays=as-needed", "en": "this table's rules: dealer_plays=as-needed"}
	for _, lang := range k.languages() {
		doc, err := k.rulesDoc(lang)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, l := range doc.Readings {
			found = found || l.Topic == want[lang]
			if strings.HasPrefix(l.Topic, "AR-") {
				t.Errorf("%s: reading under %s at spain", lang, l.Topic)
			}
		}
		if !found {
			t.Errorf("%s: no reading under %q", lang, want[lang])
		}
	}
}
