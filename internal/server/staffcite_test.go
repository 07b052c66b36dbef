package server_test

import (
	"context"
	"testing"

	"sabot"
	"sabot/internal/wire"
)

// A staff command sent by a player is refused citing the rule of the
// table's own regulation (AR-23 at argentina, ES-01 at spain, VE-22 at
// venice, not "AR-23, AR-24" at each), and one sent to a table that is not
// there is "no table" (not found), not forbidden: the table is looked up
// before the sender's role is checked against it.
func TestStaffCommandAtItsTable_AR23_ES01_VE22(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	ana := h.player("ana", 1000)
	for profile, want := range map[string]string{"argentina": "(AR-23)", "spain": "(ES-01)", "venice": "(VE-22)"} {
		tb := h.table(profile, false, map[string]string{"shoe": "physical"})
		_, err := ana.Command(ctx, tb, "approve", wire.CommandRequest{Correction: 1})
		wantCode(t, err, sabot.EFORBIDDEN, "the inspector's or the pit's only "+want)
		_, err = ana.Command(ctx, tb, "void", wire.CommandRequest{})
		wantCode(t, err, sabot.EFORBIDDEN, "the inspector's or the pit's only "+want)
	}
	for _, op := range []string{"approve", "new-shoe", "void", "authorise-shuffle", "ruling", "card", "configure"} {
		_, err := ana.Command(ctx, 999999, op, wire.CommandRequest{})
		wantCode(t, err, sabot.ENOTFOUND, "")
	}
}
