package engine

import (
	"strings"
	"testing"

	"sabot/card"
	"sabot/money"
	"sabot/rules"
)

// A round's refusals show amounts as the table shows money (AR-04, VE-21
// limits; ES-11, VE-15 insurance), across rounds; without a style, as the
// integers given.
func TestAmountFormat_AR04_VE21(t *testing.T) {
	p := rules.MustLookup("spain")
	if err := p.SetAll([]string{"min_bet=500", "max_bet=100000"}); err != nil {
		t.Fatal(err)
	}
	r := New(p)
	r.Reset(NewForced(card.MustParseList("TH 6C AS")))
	// spain's seeds set no minimum: the refusal cites no other
	// regulation's rule, but this table's option.
	if err := r.PlaceBet("ana", 1, 100); err == nil || !strings.HasSuffix(err.Error(), "the table minimum is 500 (this table's rules: min_bet=500)") {
		t.Fatalf("no style: %v", err)
	}
	r.SetAmountStyle(money.Grouped)
	for range 2 { // the style holds across Reset
		r.Reset(NewForced(card.MustParseList("TH AS 6C 9D")))
		if err := r.PlaceBet("ana", 1, 100); err == nil || !strings.HasSuffix(err.Error(), "ana may not bet 1.00 on box 1: the table minimum is 5.00 (this table's rules: min_bet=500)") {
			t.Fatalf("minimum: %v", err)
		}
		if err := r.PlaceBet("ana", 1, 200000); err == nil || !strings.Contains(err.Error(), "the table maximum is 1,000.00 (ES-03)") {
			t.Fatalf("maximum: %v", err)
		}
	}
	if err := r.PlaceBet("ana", 1, 1000); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	err := r.Act(Action{Kind: Insure, Player: "ana", Box: 1, Stake: 900})
	if err == nil || !strings.Contains(err.Error(), "ana box 1 may not insure 9.00: insurance is 1 to half the original stake, 5.00") {
		t.Fatalf("insurance: %v", err)
	}
}
