package table

import (
	"strings"
	"testing"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

// A table's refusals of a seat, a bet and a card cite its own regulation's
// rule, or this table's rules with the option that decides: a box taken at
// spain cites ES-03, not AR-21 (AR-21, ES-03, VE-03); Spain's minimum stake,
// of no rule of its seeds, cites min_bet; a card a shoe cannot hold cites
// AR-01 at argentina and VE-01 at venice, not EG-01 (EG-01, AR-01, VE-01).
func TestTableRefusalsCiteTheirOwnRule_AR21_ES03_VE03_AR01_VE01_EG01(t *testing.T) {
	want := map[string]struct{ taken, stake, card string }{
		"argentina": {"(AR-21)", "(AR-04)", "(AR-01)"},
		"spain":     {"(ES-03)", "(ES-03)", "(EG-01)"},
		"family":    {"(ES-03)", "(FAM-01)", "(FAM-01)"},
		"venice":    {"(VE-03)", "(VE-21)", "(VE-01)"},
		"vegas-s17": {"(this table's rules: boxes=7)", "(this table's rules: max_bet=100000000)", "(this table's rules: decks=6)"},
	}
	for name, w := range want {
		p := rules.MustLookup(name)
		tb, err := New(p, shoe.SeedFromUint64(1))
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit("ana", 1); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sit("ben", 1); err == nil || !strings.HasSuffix(err.Error(), w.taken) {
			t.Errorf("%s: a box taken: %v, want the citation %s", name, err, w.taken)
		}
		if err := tb.Bet("ana", 1, p.MaxBet+1); err == nil || !strings.HasSuffix(err.Error(), w.stake) {
			t.Errorf("%s: a stake over the maximum: %v, want the citation %s", name, err, w.stake)
		}
		ph := newPhysical(t, name, "min_bets_to_start=1", "lone_customer_boxes=1")
		ph.Sit("ana", 1)
		ph.Bet("ana", 1, p.MinBet)
		if _, err := ph.Deal(); err != nil {
			t.Fatal(err)
		}
		ace := card.MustParse("AS")
		var last error
		for range p.Decks + 1 {
			if last = ph.Burn(ace); last != nil {
				break
			}
		}
		if last == nil || !strings.HasSuffix(last.Error(), w.card) {
			t.Errorf("%s: an Ace of spades more than the shoe holds: %v, want the citation %s", name, last, w.card)
		}
	}
}
