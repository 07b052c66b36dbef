package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"sabot/card"
)

func TestBuiltinsValidate(t *testing.T) {
	for _, n := range Names() {
		p := MustLookup(n)
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		if p.Name != n || p.Description == "" {
			t.Errorf("%s: name %q description %q", n, p.Name, p.Description)
		}
	}
	if _, err := Lookup("atlantis"); err == nil || !strings.Contains(err.Error(), "argentina") {
		t.Errorf("unknown profile: %v", err)
	}
}

// The decks of each seed: AR-01 at least 8, EG-02 and VE-01 six, FAM-01 one;
// EG-02: the cut card leaves at least one deck; EG-03: five burned cards.
func TestShoeOfEachProfile_AR01_VE01_FAM01_EG02_EG03(t *testing.T) {
	want := map[string]int{"argentina": 8, "spain": 6, "venice": 6, "family": 1, "vegas-s17": 6}
	for n, d := range want {
		if got := MustLookup(n).Decks; got != d {
			t.Errorf("%s: %d decks, want %d", n, got, d)
		}
	}
	if p := MustLookup("spain"); p.CutCardReserve < 52 || p.BurnCards != 5 {
		t.Errorf("spain: reserve %d burn %d", p.CutCardReserve, p.BurnCards)
	}
	if p := MustLookup("argentina"); p.MinCut != 50 || p.CutCardReserve != 52 {
		t.Errorf("argentina: min cut %d reserve %d (AR-07, AR-08)", p.MinCut, p.CutCardReserve)
	}
}

func TestOptionsRoundTrip(t *testing.T) {
	for _, n := range Names() {
		p := MustLookup(n)
		q := MustLookup("vegas-s17")
		for _, o := range Options() {
			v, err := p.Get(o.Key)
			if err != nil {
				t.Fatal(err)
			}
			if err := q.Set(o.Key, v); err != nil {
				t.Fatalf("%s: set %s=%s: %v", n, o.Key, v, err)
			}
		}
		if p.Hash() != q.Hash() {
			t.Errorf("%s: options do not round-trip through Get/Set", n)
		}
	}
	if MustLookup("vegas-s17").Hash() == MustLookup("vegas-h17").Hash() {
		t.Error("different rules hash the same")
	}
}

// The game hash ignores what does not change a round's return (limits,
// layout, the shoe's handling) and sees everything else; tableOnly names
// real options.
func TestGameHash(t *testing.T) {
	for k := range tableOnly {
		if _, ok := optionByKey()[k]; !ok {
			t.Errorf("tableOnly names no option %q", k)
		}
	}
	p := MustLookup("venice")
	q := MustLookup("venice")
	if err := q.SetAll([]string{"min_bet=500", "max_bet=90000", "boxes=9", "cut_card_reserve=100", "burn_cards=3", "lone_customer_boxes=1"}); err != nil {
		t.Fatal(err)
	}
	if p.Hash() == q.Hash() || p.GameHash() != q.GameHash() {
		t.Error("limits, layout and the cut card change the game hash, or not the hash")
	}
	for _, o := range options {
		if tableOnly[o.Key] {
			continue
		}
		r := MustLookup("venice")
		v := o.get(r)
		for _, alt := range []string{"true", "false", "1", "2", "3", "6:5", "none", "late", "no-peek", "17", "any"} {
			if alt != v && r.Set(o.Key, alt) == nil && o.get(r) != v {
				break
			}
		}
		if o.get(r) != v && r.GameHash() == p.GameHash() {
			t.Errorf("%s=%s changes no game hash", o.Key, o.get(r))
		}
	}
}

func TestEveryCanonicalKey(t *testing.T) {
	// The canonical keys of RULES.md ("Profile options").
	keys := "decks boxes back_bets_per_box min_bet max_bet min_bets_to_start burn_cards min_cut cut_card_reserve last_round_void hole_card dealer_blackjack_takes dealer_hits_soft_17 blackjack_pays double_on double_after_split max_hands resplit_aces hit_split_aces split_blackjack surrender insurance even_money challenge declare_initial_ace must_draw_at_most stand_on_21 split_ten_ace_choice five_card_21 three_sevens"
	p := MustLookup("venice")
	for _, k := range strings.Fields(keys) {
		if _, err := p.Get(k); err != nil {
			t.Errorf("canonical key %s: %v", k, err)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	tests := []struct{ set, want string }{
		{"max_hands=0", "max_hands=0"},
		{"max_hands=9", "max_hands=9"},
		{"decks=0", "decks=0"},
		{"boxes=10", "boxes=10"},
		{"min_bet=0", "min_bet=0"},
		{"max_bet=5", "max_bet=5 is below min_bet"},
		{"must_draw_at_most=21", "must_draw_at_most"},
		{"cut_card_reserve=400", "cut_card_reserve"},
	}
	for _, tt := range tests {
		p := MustLookup("venice")
		p.MinBet = 10
		err := p.SetAll([]string{tt.set})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want ErrInvalid mentioning %q", tt.set, err, tt.want)
		}
	}
	bad := []struct{ set, want string }{
		{"double_on=12", "want one of any, 9-11, 10-11, 11"},
		{"decks=six", "want an integer"},
		{"insurance=maybe", "want true or false"},
		{"blackjack_pays=3", "ratio"},
		{"colour=red", "unknown option"},
		{"decks", "not key=value"},
	}
	for _, tt := range bad {
		err := MustLookup("venice").SetAll([]string{tt.set})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.set, err, tt.want)
		}
	}
}

func TestFromMap(t *testing.T) {
	p, err := FromMap(map[string]any{"base": "venice", "name": "venezia-high", "max_bet": int64(500000), "decks": float64(8), "insurance": false})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "venezia-high" || p.MaxBet != 500000 || p.Decks != 8 || p.Insurance || !p.SplitTenAceChoice {
		t.Errorf("profile %+v", p)
	}
	if _, err := FromMap(map[string]any{"base": "venice", "decks": 1.5}); err == nil {
		t.Error("fractional decks accepted")
	}
	if _, err := FromMap(map[string]any{"base": "nowhere"}); err == nil {
		t.Error("unknown base accepted")
	}
}

func TestReadingsNameOptions(t *testing.T) {
	for _, n := range Names() {
		for _, r := range MustLookup(n).Readings() {
			if r.Option != "" {
				if _, err := MustLookup(n).Get(r.Option); err != nil {
					t.Errorf("%s: reading %s names unknown option %s", n, r.Rule, r.Option)
				}
			}
		}
	}
	found := false
	for _, r := range MustLookup("argentina").Readings() {
		found = found || r.Rule == "AR-19"
	}
	if !found {
		t.Error("argentina: no AR-19 reading")
	}
}

// AR-08, EG-02, AR-07: a variation of a profile in decks alone keeps a cut
// card and a cut its shoe can hold: a reserve of one deck stays one deck
// where the shoe holds it, any other keeps its share; each change is noted.
func TestCutCardFollowsTheDecks_AR07_AR08_EG02(t *testing.T) {
	cases := []struct {
		profile string
		set     []string
		reserve int
		minCut  int
		notes   int
	}{
		{"vegas-s17", []string{"decks=1"}, 13, 0, 1},
		{"vegas-s17", []string{"decks=2"}, 26, 0, 1},
		{"vegas-s17", []string{"decks=8"}, 104, 0, 1},
		{"spain", []string{"decks=4"}, 52, 0, 0},
		{"spain", []string{"decks=1", "max_hands=4"}, 9, 0, 1},
		{"spain", []string{"decks=2"}, 52, 0, 0},
		{"argentina", []string{"decks=1"}, 7, 6, 2},
		{"argentina", []string{"decks=6"}, 52, 50, 0},
		{"vegas-s17", []string{"decks=1", "cut_card_reserve=20"}, 20, 0, 0},
		{"vegas-s17", []string{"cut_card_reserve=100", "burn_cards=0"}, 100, 0, 0},
	}
	for _, c := range cases {
		p := MustLookup(c.profile)
		notes, err := p.Override(c.set)
		if err != nil {
			t.Errorf("%s %v: %v", c.profile, c.set, err)
			continue
		}
		if p.CutCardReserve != c.reserve || p.MinCut != c.minCut || len(notes) != c.notes {
			t.Errorf("%s %v: cut_card_reserve=%d min_cut=%d, notes %q; want %d, %d and %d notes", c.profile, c.set, p.CutCardReserve, p.MinCut, notes, c.reserve, c.minCut, c.notes)
		}
	}
	// A profile file changing its base's decks follows the same way.
	p, notes, err := FromMapNoted(map[string]any{"base": "vegas-s17", "decks": int64(1)})
	if err != nil || p.CutCardReserve != 13 || len(notes) != 1 || !strings.Contains(notes[0], "from 78 to 13") {
		t.Errorf("file: %v, reserve %v, notes %q", err, p, notes)
	}
	// A reserve the user sets is his: refused when the shoe cannot hold it.
	if err := MustLookup("vegas-s17").SetAll([]string{"decks=1", "cut_card_reserve=78"}); err == nil {
		t.Error("decks=1 cut_card_reserve=78 accepted")
	}
}

// Each profile's readings of AR-14 and VE-21 are argued from its own seed.
func TestReadingsOfTheDealerAndTheMaximum_AR14_ES03_ES05_VE08_VE21(t *testing.T) {
	want := map[string][]string{
		"argentina": {"AR-14 dealer_plays"},
		"spain":     {"ES-05 dealer_plays", "ES-03 max_bet_scope"},
		"venice":    {"VE-08 dealer_plays", "VE-21 max_bet_caps_double"},
		"vegas-s17": {"AR-14 dealer_plays"},
	}
	for name, ws := range want {
		var got []string
		for _, r := range MustLookup(name).Readings() {
			got = append(got, r.Rule+" "+r.Option)
		}
		for _, w := range ws {
			if !slices.Contains(got, w) {
				t.Errorf("%s: readings %q lack %q", name, got, w)
			}
		}
	}
}

// Readings once shown as rules, each now a reading with its
// reason: family's no back betting and its 6 splits (FAM-01), Venice's
// double after any split (VE-13) and its one-deck cut card (VE-01), Spain's
// no resplit of Aces (ES-09), the insurance's close (ES-11, VE-15), the
// challenge on an odd stake (AR-10).
func TestReadingsListed_FAM01_VE13_VE01_ES09_ES11_AR10(t *testing.T) {
	want := map[string][]string{
		"argentina": {"AR-10 challenge"},
		"spain":     {"ES-09 max_hands", "ES-09 resplit_aces", "ES-11 insurance_closes", "ES-03 back_follow"},
		"family":    {"FAM-01 back_bets_per_box", "FAM-01 max_hands", "ES-09 resplit_aces", "ES-11 insurance_closes"},
		"venice":    {"VE-13 double_after_split", "VE-01 cut_card_reserve", "VE-15 insurance_closes", "VE-12 back_follow"},
	}
	for name, ws := range want {
		var got []string
		for _, r := range MustLookup(name).Readings() {
			got = append(got, r.Rule+" "+r.Option)
		}
		for _, w := range ws {
			if !slices.Contains(got, w) {
				t.Errorf("%s: readings %q lack %q", name, got, w)
			}
		}
	}
}

// A profile of a seed reads it by its own rules: at every value of every
// option of every built-in profile, a reading cites a rule of the
// profile's regulation, or, where the value gives the table a behaviour its
// regulation does not have (dealer_plays=as-needed at spain, AR-14's), it
// is cited as this table's rules with the option and its value, never
// another regulation's rule as the table's own.
func TestReadingsCiteTheirOwnRegulation(t *testing.T) {
	values := func(p *Profile, o Option) []string {
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
	checked := 0
	for _, name := range []string{"argentina", "spain", "family", "venice"} {
		base := MustLookup(name)
		for _, o := range Options() {
			for _, v := range values(base, o) {
				p := base.Clone()
				if p.Set(o.Key, v) != nil || p.Validate() != nil {
					continue
				}
				for _, r := range p.Readings() {
					checked++
					if p.OwnRule(r.Rule) {
						if r.Cite != r.Rule {
							t.Errorf("%s %s=%s: reading %s [%s] cited %q, not its own rule", name, o.Key, v, r.Rule, r.Option, r.Cite)
						}
						continue
					}
					val, _ := p.Get(r.Option)
					if want := TableRules + ": " + r.Option + "=" + val; r.Option == "" || r.Cite != want {
						t.Errorf("%s %s=%s: reading %s [%s] is another regulation's, cited %q", name, o.Key, v, r.Rule, r.Option, r.Cite)
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d readings checked", checked)
	}
}

// Which dealer reading a profile takes (VE-08 or ES-05) goes by its
// regulation, not by an option that happens to differ between them:
// venice with even_money=ace and spain with even_money=ace-or-ten keep
// their own.
func TestDealerPlaysReadingByRegulation_VE08_ES05(t *testing.T) {
	for _, c := range []struct{ name, even, want string }{
		{"venice", "ace", "VE-08"}, {"venice", "ace-or-ten", "VE-08"},
		{"spain", "ace-or-ten", "ES-05"}, {"spain", "ace", "ES-05"}, {"family", "ace-or-ten", "ES-05"},
	} {
		p := MustLookup(c.name)
		must(t, p.Set("dealer_plays", "always"))
		must(t, p.Set("even_money", c.even))
		var got []string
		for _, r := range p.Readings() {
			if r.Option == "dealer_plays" {
				got = append(got, r.Cite)
			}
		}
		if !slices.Equal(got, []string{c.want}) {
			t.Errorf("%s with even_money=%s: dealer_plays read under %q, want %s", c.name, c.even, got, c.want)
		}
	}
}

// The readings of the seeds' third reading, each named with its option
// (or none where there is one way): stand on 21 outside Venice (AR-12's
// text, ES-04's reading), AR-13's Ace counted anew (dealer_ace=recount;
// stays-one its other value), AR-14's letter as a
// value, AR-19's letter (aces-even, argentina's default), AR-11's
// irrevocable declaration, AR-10's «también», ES-07's push, the Spanish
// back bettor's own insurance and even money (ES-11), VE-12's new pair on
// either hand, VE-13's unanswered choice, family's shoe (FAM-03), period
// (FAM-02) and bank's cover (FAM-01), and the end of the cards where only
// AR-08 has a rule (EG-02, FAM-03, VE-01).
func TestReadingsListed_AR10_AR12_AR13_AR19_ES04_ES07_ES11_VE12_VE13_FAM01_FAM02_FAM03_EG02_VE01(t *testing.T) {
	want := map[string][]string{
		"argentina": {"AR-12 stand_on_21", "AR-13 dealer_ace=recount", "AR-19 split_blackjack=aces-even", "AR-11 declare_initial_ace", "AR-10 "},
		"spain":     {"ES-04 stand_on_21", "ES-07 ", "ES-11 ", "EG-02 "},
		"family":    {"ES-04 stand_on_21", "ES-07 ", "FAM-03 ", "FAM-03 cut_card_reserve", "FAM-02 bank_rounds", "FAM-01 bank_rotates"},
		"venice":    {"VE-13 split_ten_ace_choice", "VE-01 ", "VE-12 resplit_hands=any"},
	}
	for name, ws := range want {
		var got []string
		for _, r := range MustLookup(name).Readings() {
			k := r.Rule + " " + r.Option
			if r.Value != "" {
				k += "=" + r.Value
			}
			got = append(got, k)
		}
		for _, w := range ws {
			if !slices.Contains(got, w) {
				t.Errorf("%s: readings %q lack %q", name, got, w)
			}
		}
	}
	p := MustLookup("argentina")
	must(t, p.Set("dealer_plays", "unless-all-bust"))
	found := false
	for _, r := range p.Readings() {
		found = found || r.Rule == "AR-14" && r.Value == "unless-all-bust"
	}
	if !found {
		t.Error("argentina with dealer_plays=unless-all-bust: no AR-14 reading of the letter")
	}
	must(t, p.Set("dealer_ace", "stays-one"))
	found = false
	for _, r := range p.Readings() {
		found = found || r.Rule == "AR-13" && r.Option == "dealer_ace" && r.Value == "stays-one"
	}
	if !found {
		t.Error("argentina with dealer_ace=stays-one: no AR-13 reading of the Ace that stays 1")
	}
	v := MustLookup("venice")
	must(t, v.Set("resplit_hands", "first"))
	var ve12 []string
	for _, r := range v.Readings() {
		if r.Rule == "VE-12" && r.Option == "resplit_hands" {
			ve12 = append(ve12, r.Option+"="+r.Value)
		}
	}
	if !slices.Equal(ve12, []string{"resplit_hands=first"}) {
		t.Errorf("venice with resplit_hands=first: VE-12 readings %q, want the first hand's alone", ve12)
	}
}

// AR-13: the dealer's count by dealer_ace. Under recount DealerAdd is Add;
// under stays-one an Ace counted 11 in a soft hand of two cards or more is
// fixed at 1 before the next card (A-5-2 is 8, 3-2-A-3 is 9), the first
// two cards are counted as they come (A-6 is 17), and a later Ace counts
// 11 where that makes 17 to 21 (A-5-A is 17); under H17 a soft 17 drawn
// to fixes its Ace too (A-6-2 is 9).
func TestDealerAdd_AR13(t *testing.T) {
	cases := []struct {
		reading string
		h17     bool
		cards   string
		total   int
		draws   bool
	}{
		{"recount", false, "AS 5D 2H", 18, false},
		{"stays-one", false, "AS 5D 2H", 8, true},
		{"stays-one", false, "3S 2D AH", 16, true},
		{"stays-one", false, "3S 2D AH 3C", 9, true},
		{"recount", false, "3S 2D AH 3C", 19, false},
		{"stays-one", false, "AS 6D", 17, false},
		{"stays-one", false, "AS 5D AH", 17, false},
		{"stays-one", false, "AS AD", 12, true},
		{"stays-one", false, "AS AD 5C", 7, true},
		{"recount", false, "AS AD 5C", 17, false},
		{"stays-one", true, "AS 6D 2H", 9, true},
		{"recount", true, "AS 6D 2H", 19, false},
	}
	for _, c := range cases {
		p := MustLookup("vegas-s17")
		p.DealerHitsSoft17 = c.h17
		must(t, p.Set("dealer_ace", c.reading))
		cs, err := card.ParseList(c.cards)
		if err != nil {
			t.Fatal(err)
		}
		n := p.DealerCount(cs...)
		if n.Total() != c.total || p.DealerDraws(n) != c.draws {
			t.Errorf("%s h17=%v %s: total %d draws %v, want %d %v", c.reading, c.h17, c.cards, n.Total(), p.DealerDraws(n), c.total, c.draws)
		}
		if c.reading == "recount" && n != CountOf(cs...) {
			t.Errorf("recount %s: DealerCount %+v, CountOf %+v", c.cards, n, CountOf(cs...))
		}
	}
}
