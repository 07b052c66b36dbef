package engine

import (
	"testing"

	"sabot/card"
	"sabot/rules"
)

// AR-08 is the Argentine text's: «las cartas no alcanzaran para definir el
// pase, éste será nulo». A spain, family or venice round whose cards run
// out is void by the profile's own reading, citing its own rule (EG-02,
// FAM-03, VE-01), not AR-08; and the void reverses nothing the seed makes
// final: an even money paid («finalizando con esto su jugada», ES-10;
// «l'immediato pagamento», VE-16) stays paid.
func TestCardsOutIsEachRegulationsOwn_AR08_EG02_FAM03_VE01_ES10_VE16(t *testing.T) {
	for _, tc := range []struct {
		profile, rule string
		evenMoney     bool
	}{
		{"argentina", "(AR-08)", false},
		{"spain", "(EG-02)", true},
		{"family", "(FAM-03)", true},
		{"venice", "(VE-01)", true},
	} {
		r := New(rules.MustLookup(tc.profile))
		// ana's blackjack under an Ace, ben's 19; the dealer's second card
		// is not there.
		cards := "AS TH AD KH 9C"
		if tc.profile == "argentina" {
			cards = "TS TH 9D KH" // no hole card left to deal
		}
		r.Reset(NewForced(card.MustParseList(cards)))
		for _, b := range []PlacedBet{{"ana", 1, 100}, {"ben", 2, 100}} {
			if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
		if tc.evenMoney {
			act(t, r, Action{Kind: EvenMoney, Player: "ana", Box: 1, Hand: 1}, Action{Kind: Close}, Action{Kind: Stand, Player: "ben", Box: 2, Hand: 1})
		}
		void, why := r.Void()
		if !void {
			t.Fatalf("%s: the round is not void (phase %v)", tc.profile, r.Phase())
		}
		if len(why) < len(tc.rule) || why[len(why)-len(tc.rule):] != tc.rule {
			t.Errorf("%s: void %q, want it to cite %s", tc.profile, why, tc.rule)
		}
		nets, _ := r.Net()
		want := int64(0)
		if tc.evenMoney {
			want = 100
		}
		if int64(nets["ana"]) != want || nets["ben"] != 0 {
			t.Errorf("%s: nets %v, want ana %d (an even money paid stays paid), ben 0", tc.profile, nets, want)
		}
	}
}
