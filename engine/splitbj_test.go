package engine

import (
	"strings"
	"testing"

	"sabot/card"
	"sabot/rules"
)

// ES-10, ES-09: «los jugadores que tengan Black Jack podrán solicitar el pago
// a la par», and of a split hand «se contará como 21 y no como Black Jack»:
// under a dealer Ace, a split Ace that draws a King (or a split King that
// draws an Ace) is 21, and neither its holder nor his back bettor may take
// even money on it while the offer stays open (ES-11), at spain and family;
// it is not offered among the legal actions either (the web's buttons).
func TestNoEvenMoneyOnASplit21_ES10_ES09(t *testing.T) {
	for _, tc := range []struct{ profile, cards string }{
		{"spain", "AS 9H AD AH 8H KS TD KC"},
		{"family", "AS 9H AD AH 8H KS TD KC"},
		{"spain", "KS 9H AD QH 8H AC TD KC"},
		{"family", "KS 9H AD QH 8H AC TD 7C"},
	} {
		p := rules.MustLookup(tc.profile)
		if err := p.SetAll([]string{"back_bets_per_box=1"}); err != nil {
			t.Fatal(err)
		}
		r := New(p)
		r.Reset(NewForced(card.MustParseList(tc.cards)))
		for _, b := range []PlacedBet{{"ana", 1, 100}, {"ben", 1, 100}, {"cy", 2, 100}} {
			if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
		act(t, r, Action{Kind: Close}, Action{Kind: Split, Player: "ana", Box: 1, Hand: 1}, Action{Kind: Split, Player: "ben", Box: 1, Hand: 1})
		for r.Phase() == FollowWindow || r.Phase() == AceChoice {
			act(t, r, Action{Kind: Close})
		}
		if h := r.Hands(1)[0]; !h.Count.TwoCard21() {
			t.Fatalf("%s %s: box 1 hand 1 is %v, want a split 21", tc.profile, tc.cards, h.Cards())
		}
		for _, a := range r.LegalActions(nil) {
			if a.Kind == EvenMoney {
				t.Errorf("%s %s: even money offered on a split 21: %v", tc.profile, tc.cards, a)
			}
		}
		for _, who := range []string{"ana", "ben"} {
			err := r.Act(Action{Kind: EvenMoney, Player: who, Box: 1, Hand: 1})
			if err == nil || !strings.Contains(err.Error(), "21, not a blackjack (ES-10, ES-09)") {
				t.Errorf("%s %s: %s's even money on a split 21: %v", tc.profile, tc.cards, who, err)
			}
		}
	}
}

// ES-10 under split_blackjack=blackjack-even (AR-19's reading): the split
// hand ranks as a blackjack, and even money may be taken on it.
func TestEvenMoneyOnASplitBlackjackWhereItRanksAsOne_ES10_AR19(t *testing.T) {
	p := rules.MustLookup("spain")
	if err := p.SetAll([]string{"split_blackjack=blackjack-even"}); err != nil {
		t.Fatal(err)
	}
	r := New(p)
	r.Reset(NewForced(card.MustParseList("AS 9H AD AH 8H KS TD KC")))
	for _, b := range []PlacedBet{{"ana", 1, 100}, {"cy", 2, 100}} {
		if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	act(t, r, Action{Kind: Close}, Action{Kind: Split, Player: "ana", Box: 1, Hand: 1}, Action{Kind: EvenMoney, Player: "ana", Box: 1, Hand: 1})
}

// VE-15 «i Black Jack non possono essere assicurati», read with VE-14 (a ten
// on a split Ace is 21, not blackjack): where the offer stays open while the
// boxes play (insurance_closes=third-card), a split 21 is no blackjack and
// may be insured.
func TestASplit21MayBeInsured_VE15_VE14(t *testing.T) {
	p := rules.MustLookup("venice")
	if err := p.SetAll([]string{"insurance_closes=third-card"}); err != nil {
		t.Fatal(err)
	}
	r := New(p)
	r.Reset(NewForced(card.MustParseList("KS 9H AD QH 8H AC TD KC")))
	for _, b := range []PlacedBet{{"ana", 1, 100}, {"cy", 2, 100}} {
		if err := r.PlaceBet(b.Player, b.Box, b.Stake); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	act(t, r, Action{Kind: Close}, Action{Kind: Split, Player: "ana", Box: 1, Hand: 1})
	for r.Phase() == FollowWindow || r.Phase() == AceChoice {
		act(t, r, Action{Kind: Close})
	}
	if err := r.Act(Action{Kind: Insure, Player: "ana", Box: 1, Hand: 1, Stake: 50}); err != nil {
		t.Errorf("insuring a split 21: %v", err)
	}
}
