package live

import (
	"context"
	"strings"
	"testing"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/rules"
	"sabot/table"
)

// citeOK says what is wrong with a refusal's citation at a profile, or
// "": its last parenthesis names rules of the profile's own regulation, or
// this table's rules with an option the profile has, or nothing at all
// (no rule of that regulation decides it); never another regulation's
// rule.
func citeOK(p *rules.Profile, msg string) string {
	for _, id := range []string{"AR-", "ES-", "EG-", "FAM-", "PON-", "VE-"} {
		for rest := msg; ; {
			i := strings.Index(rest, id)
			if i < 0 {
				break
			}
			end := i + len(id)
			for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
				end++
			}
			if rule := rest[i:end]; p.Regulation == "" || !p.OwnRule(rule) {
				return "cites " + rule + ", not a rule of this table's regulation"
			}
			rest = rest[end:]
		}
	}
	if i := strings.Index(msg, rules.TableRules+": "); i >= 0 {
		opt := msg[i+len(rules.TableRules)+2:]
		key, _, _ := strings.Cut(opt, "=")
		if _, err := p.Get(key); err != nil {
			return "cites an option the profile does not have"
		}
	}
	return ""
}

// dealtAt is a table of the profile dealt from a physical shoe, ana on box
// 1 and ben on box 2, its round dealt with ten-values.
func dealtAt(t *testing.T, profile string) *fakeTable {
	t.Helper()
	p := rules.MustLookup(profile).Clone()
	if err := p.SetAll([]string{"min_bets_to_start=1", "lone_customer_boxes=1", "bank_rotates=false"}); err != nil {
		t.Fatal(err)
	}
	tb, err := table.NewPhysical(p)
	if err != nil {
		t.Fatal(err)
	}
	tb.Sit("ana", 1)
	tb.Sit("ben", 2)
	tb.Bet("ana", 1, p.MinBet)
	tb.Bet("ben", 2, p.MinBet)
	if _, err := tb.Deal(); err != nil {
		t.Fatalf("%s: %v", profile, err)
	}
	f := &fakeTable{t: tb, dealt: true, seq: 10, players: map[string]int64{"#7-3": 3}}
	tens := card.MustParseList("TS TH TD TC JS JH JD JC QS QH QD QC")
	for i, ok := 0, true; ok; i++ {
		if _, ok = tb.Need(); !ok {
			break
		}
		if _, err := ReadCard(context.Background(), f, dealer, tens[i]); err != nil {
			t.Fatalf("%s: %v", profile, err)
		}
	}
	return f
}

// Every refusal of the dealer's and the inspector's commands at a table
// dealt from a physical shoe, and of a walk-in's seat, cites its own
// regulation's rule: a correction refused cites AR-23 at
// argentina, ES-01 at spain and family (003 §11: the incidents «dirimidas
// por el jefe de mesa»), VE-22 at venice (the disputes the Direzione Giochi
// decides); a box taken AR-21, ES-03, VE-03; the cut card AR-08, EG-04, and
// this table's rules (cut_card_reserve) at venice, whose 004 says nothing
// of it. A reference profile cites this table's rules.
func TestStaffRefusalsCiteTheirOwnRule_AR23_ES01_VE22_AR21_ES03_VE03_AR08_EG04(t *testing.T) {
	want := map[string]struct{ staff, seat, cut string }{
		"argentina": {"(AR-23)", "(AR-21)", "(AR-08)"},
		"spain":     {"(ES-01)", "(ES-03)", "(EG-04)"},
		"family":    {"(ES-01)", "(ES-03)", "(EG-04)"},
		"venice":    {"(VE-22)", "(VE-03)", "(this table's rules: cut_card_reserve=52)"},
		"vegas-s17": {"(this table's rules)", "(this table's rules: boxes=7)", "(this table's rules: cut_card_reserve=78)"},
	}
	ctx := context.Background()
	for _, name := range rules.Names() {
		w, ok := want[name]
		p := rules.MustLookup(name)
		f := dealtAt(t, name)
		var refusals []struct {
			what, want string
			err        error
		}
		refused := func(what, want string, _ int64, err error) {
			refusals = append(refusals, struct {
				what, want string
				err        error
			}{what, want, err})
		}
		for _, kase := range []string{"h", "i"} {
			req, _ := ParseCorrect(kase, 1, "")
			n, err := Correct(ctx, f, dealer, req)
			refused("case "+kase, w.staff, n, err)
		}
		n, err := Correct(ctx, f, dealer, CorrectRequest{Case: "a", Box: 5})
		refused("a box not in play", w.staff, n, err)
		n, err = Correct(ctx, f, dealer, CorrectRequest{Case: "j", Card: card.MustParse("2C")})
		refused("a card the bank does not hold", w.staff, n, err)
		id, err := Correct(ctx, f, dealer, CorrectRequest{Case: "d", Card: card.MustParse("5S")})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n, err = (&Live{}).Approve(ctx, f, dealer, id)
		refused("an approval by who asked", w.staff, n, err)
		n, err = RefuseCorrection(ctx, f, dealer, id)
		refused("a refusal by who asked", w.staff, n, err)
		if err := f.t.Round().Act(engine.Action{Kind: engine.Hit, Player: "ana", Box: 1, Hand: 1}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := ReadCard(ctx, f, dealer, card.MustParse("KH")); err != nil { // 30: busted
			t.Fatalf("%s: %v", name, err)
		}
		n, err = UndoCard(ctx, f, dealer)
		refused("the dealer's undo of a card that decided", w.staff, n, err)
		n, err = (&Live{}).SeatWalkIn(ctx, f, 1)
		refused("a walk-in at a box taken", w.seat, n, err)
		f.dealt = false
		n, err = CutCard(ctx, f, dealer)
		refused("the cut card between rounds", w.cut, n, err)
		n, err = Correct(ctx, f, dealer, CorrectRequest{Case: "c"})
		refused("a correction between rounds", w.staff, n, err)
		n, err = CardStands(ctx, f)
		refused("card-stands between rounds", w.staff, n, err)
		for _, r := range refusals {
			switch {
			case r.err == nil:
				t.Errorf("%s: %s: accepted", name, r.what)
			case ok && !strings.HasSuffix(sabot.ErrorMessage(r.err), r.want):
				t.Errorf("%s: %s: %q, want the citation %s", name, r.what, sabot.ErrorMessage(r.err), r.want)
			}
			if why := citeOK(p, sabot.ErrorMessage(r.err)); why != "" {
				t.Errorf("%s: %s: %q %s", name, r.what, sabot.ErrorMessage(r.err), why)
			}
		}
		// The record of a correction asked cites the table's own rule too.
		for _, x := range f.events {
			if why := citeOK(p, x.Text); why != "" {
				t.Errorf("%s: the table is told %q: %s", name, x.Text, why)
			}
		}
	}
}
