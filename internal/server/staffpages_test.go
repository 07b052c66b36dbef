package server_test

import (
	"context"
	"fmt"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/live"
	"sabot/internal/wire"
)

// The console shows each walk-in's chips by his box. GET
// /api/tables/{id}/walk-ins answers the table's staff with every walk-in's
// box and chips; a player, and a dealer not on the table's staff, are
// refused with the reason.
func TestWalkInsChips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "staff": "dora"})
	dora, zed := h.staff("dora", "dealer"), h.staff("zed", "dealer")
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(dora.Command(ctx, tb, "seat-walk-in", wire.CommandRequest{Box: 2}))
	must(dora.Command(ctx, tb, "seat-walk-in", wire.CommandRequest{Box: 5}))
	must(dora.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 2, Stake: 5000}))
	must(dora.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 5, Stake: 1200}))
	must(dora.Command(ctx, tb, "bet", wire.CommandRequest{Box: 5, Stake: 200, WalkIn: 5}))

	path := fmt.Sprintf("/api/tables/%d/walk-ins", tb)
	for _, c := range []*client.Client{dora, h.admin} {
		var got []live.WalkInView
		if err := c.Do(ctx, "GET", path, nil, &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Box != 2 || got[0].Chips != 5000 || got[1].Box != 5 || got[1].Chips != 1000 {
			t.Errorf("walk-ins: %+v, want box 2 with 50.00 and box 5 with 10.00 (12.00 less the 2.00 staked)", got)
		}
	}
	var none []live.WalkInView
	wantCode(t, ana.Do(ctx, "GET", path, nil, &none), sabot.EFORBIDDEN, "for its staff")
	wantCode(t, zed.Do(ctx, "GET", path, nil, &none), sabot.EFORBIDDEN, "zed is not on this table's staff")
}
