package table

import (
	"testing"

	"sabot/engine"
)

// VE-04: a bet may be withdrawn until the first card leaves the shoe, not after.
func TestWithdraw_VE04(t *testing.T) {
	tb := newTable(t, "venice")
	tb.Sit("ana", 1)
	tb.Bet("ana", 1, 100)
	tb.Bet("ana", 2, 50)
	if got, err := tb.Withdraw("ana", 2); err != nil || got != 50 {
		t.Fatalf("Withdraw = %d, %v; want 50", got, err)
	}
	if _, err := tb.Withdraw("ana", 2); err == nil {
		t.Fatal("withdrew a bet twice")
	}
	tb.Bet("ana", 2, 50)
	r, err := tb.Deal()
	if err != nil {
		t.Fatal(err)
	}
	if r.Phase() != engine.Done { // a round in play refuses
		_, err := tb.Withdraw("ana", 1)
		wantRefused(t, err, "VE-04")
	}
}
