package actor

import (
	"strings"
	"testing"

	"sabot"
	"sabot/internal/wire"
	"sabot/rules"
)

// A staff command refused to someone it is not for cites the rule of the
// regulation of the table it was sent to, never another's: the inspector's
// approval, refusal, ruling and void cite AR-23 at
// argentina, ES-01 at spain and family (the table head decides the
// incidents, 003 §11), VE-22 at venice (the games management decides the
// disputes); a new shoe AR-24, ES-01, and nothing at venice, whose 004
// says nothing of it; the new shoe's steps AR-07, EG-02, and this table's
// rules (player_cut) at venice. A reference profile cites this table's
// rules. They cited AR-23, AR-24 and AR-07, EG-02 at every table.
func TestStaffCommandRefusalsCiteTheirOwnRule_AR23_AR24_AR07_ES01_EG02_VE22(t *testing.T) {
	type cites struct{ staff, shoe, steps string }
	want := map[string]cites{
		"argentina": {"(AR-23)", "(AR-24)", "(AR-07)"},
		"spain":     {"(ES-01)", "(ES-01)", "(EG-02)"},
		"family":    {"(ES-01)", "(ES-01)", "(EG-02)"},
		"venice":    {"(VE-22)", "only", "(this table's rules: player_cut=false)"},
		"vegas-s17": {"(this table's rules)", "(this table's rules)", "(this table's rules: player_cut=false)"},
	}
	dealer := &sabot.User{ID: 3, Name: "dora", Role: sabot.RoleDealer}
	for _, name := range rules.Names() {
		p := rules.MustLookup(name)
		at := &Table{created: &sabot.Table{ID: 1, Profile: name}}
		w, known := want[name]
		probed := 0
		for _, op := range tableCommands {
			if op.who != byInspector && op.who != byCutter {
				continue
			}
			probed++
			err := op.Allows(dealer, at)
			if sabot.ErrorCode(err) != sabot.EFORBIDDEN {
				t.Fatalf("%s: %s by a dealer: %v, want forbidden", name, op.name, err)
			}
			msg := sabot.ErrorMessage(err)
			if why := ownCitation(p, msg); why != "" {
				t.Errorf("%s: %s: %q %s", name, op.name, msg, why)
			}
			wantCite := w.staff
			switch op.name {
			case wire.OpNewShoe:
				wantCite = w.shoe
			case wire.OpAuthoriseShuffle, wire.OpCutShoe:
				wantCite = w.steps
			}
			if known && !strings.HasSuffix(msg, wantCite) {
				t.Errorf("%s: %s: %q, want the citation %s", name, op.name, msg, wantCite)
			}
			if err := op.Allows(dealer, nil); strings.Contains(sabot.ErrorMessage(err), "(") {
				t.Errorf("%s: %s at no table: %v cites a rule", name, op.name, err)
			}
		}
		if probed < 7 {
			t.Errorf("%s: %d staff commands probed, want the 7 of the inspector and the cutter", name, probed)
		}
	}
}

// ownCitation says what is wrong with a refusal's citations at a profile,
// or "": every rule ID it names is of the profile's own regulation, and
// this table's rules name an option the profile has.
func ownCitation(p *rules.Profile, msg string) string {
	for _, f := range strings.FieldsFunc(msg, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' || r == ';' }) {
		pre, num, ok := strings.Cut(f, "-")
		if !ok || num == "" || num[0] < '0' || num[0] > '9' {
			continue
		}
		switch pre {
		case "AR", "ES", "EG", "FAM", "PON", "VE":
			if p.Regulation == "" || !p.OwnRule(f) {
				return "cites " + f + ", not a rule of this table's regulation"
			}
		}
	}
	if _, opt, ok := strings.Cut(msg, rules.TableRules+": "); ok {
		key, _, _ := strings.Cut(opt, "=")
		if _, err := p.Get(key); err != nil {
			return "cites an option the profile does not have"
		}
	}
	return ""
}
