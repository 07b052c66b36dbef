package server

import (
	"fmt"
	"testing"

	"sabot/rules"
	"sabot/table"
)

// A table that cannot deal yet says why with a reason and its values, which
// the page words in its language: AR-03's bets needed and placed, VE-20's
// boxes; a refusal of another rule has only its text.
func TestWaitingReason(t *testing.T) {
	ar, err := rules.Lookup("argentina")
	if err != nil {
		t.Fatal(err)
	}
	ve, err := rules.Lookup("venice")
	if err != nil {
		t.Fatal(err)
	}
	e := waiting(ar, 1, fmt.Errorf("%w: a shoe starts with 3 bets; 1 placed (AR-03)", table.ErrRefused))
	if e.Kind != "waiting" || e.Reason != "table_minimum_bets" || e.Params["need"] != 3 || e.Params["n"] != 1 || e.Params["rule"] != "AR-03" || e.Text == "" {
		t.Fatalf("AR-03: %+v", e)
	}
	e = waiting(ve, 1, fmt.Errorf("%w: a lone customer plays at least 2 boxes (VE-20)", table.ErrRefused))
	if e.Reason != "lone_customer_boxes" || e.Params["need"] != 2 || e.Params["rule"] != "VE-20" {
		t.Fatalf("VE-20: %+v", e)
	}
	e = waiting(ve, 0, fmt.Errorf("%w: no bet has been placed", table.ErrRefused))
	if e.Reason != "" || e.Params != nil || e.Text == "" {
		t.Fatalf("no rule: %+v", e)
	}
}
