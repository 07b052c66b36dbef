package actor

import (
	"fmt"
	"testing"

	"sabot/table"
)

// A table that cannot deal yet says why in words (never an error's raw
// text) and with a reason and its values, which the page words in its
// language: AR-03's bets or players needed and had, VE-20's boxes; a
// refusal of no rule has only its text.
func TestWaitingReason(t *testing.T) {
	e := waiting(&table.NotReady{Rule: "AR-03", Reason: "table_minimum_players", Need: 3, Have: 1, Bets: 3})
	if e.Kind != "waiting" || e.Reason != "table_minimum_players" || e.Params["need"] != 3 || e.Params["n"] != 1 || e.Params["bets"] != 3 || e.Params["rule"] != "AR-03" {
		t.Fatalf("AR-03: %+v", e)
	}
	if want := "a shoe starts with 3 seated players betting; 3 bets placed by 1 player (AR-03)"; e.Text != want {
		t.Fatalf("AR-03 says %q, want %q", e.Text, want)
	}
	e = waiting(&table.NotReady{Rule: "VE-20", Reason: "lone_customer_boxes", Need: 2, Have: 1, Bets: 1})
	if e.Reason != "lone_customer_boxes" || e.Params["need"] != 2 || e.Params["n"] != 1 || e.Params["rule"] != "VE-20" {
		t.Fatalf("VE-20: %+v", e)
	}
	e = waiting(fmt.Errorf("%w: no bet has been placed", table.ErrRefused))
	if e.Reason != "" || e.Params != nil || e.Text != "no bet has been placed" {
		t.Fatalf("no rule: %+v", e)
	}
}
