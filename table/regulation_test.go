package table

import (
	"regexp"
	"strings"
	"testing"

	"sabot/rules"
)

// The table's refusals cite only rules of its own regulation (a Spanish back
// bet over the maximum cited AR-04, VE-21), and a reference profile's none:
// each refusal the table can say before and during a round, on every
// profile.
func TestTableRefusalsCiteTheirOwnRegulation_AR04_ES03_VE21(t *testing.T) {
	cited := regexp.MustCompile(`\(([A-Z]+-[0-9]+(?:, [A-Z]+-[0-9]+)*)\)$`)
	for _, name := range rules.Names() {
		tb := newTable(t, name, "max_bet=1000", "min_bets_to_start=1", "lone_customer_boxes=0")
		p := tb.Profile()
		var errs []error
		try := func(err error) {
			if err != nil {
				errs = append(errs, err)
			}
		}
		try(tb.Sit("ana", 1))
		try(tb.Sit("ben", 1))            // taken (AR-21)
		try(tb.Bet("ana", 1, 5000))      // over the maximum
		try(tb.Bet("cy", 1, 5000))       // a back bet over the maximum
		try(tb.Bet("cy", 1, 100))        // a back bet
		try(tb.Bet("cy", 2, 100))        // standing, on a free box
		try(tb.Bet("ana", p.Boxes+1, 1)) // no such box
		try(tb.Bet("ana", 1, 100))
		if _, err := tb.Deal(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		try(tb.Bet("ana", 1, 100)) // during the round
		try(tb.NewShoe())          // during the round
		if len(errs) < 6 {
			t.Errorf("%s: only %d refusals: %v", name, len(errs), errs)
		}
		for _, err := range errs {
			m := cited.FindStringSubmatch(err.Error())
			if m == nil {
				continue
			}
			for _, id := range strings.Split(m[1], ", ") {
				if !p.OwnRule(id) {
					t.Errorf("%s: %q cites %s, not of its regulation", name, err, id)
				}
			}
		}
	}
}
