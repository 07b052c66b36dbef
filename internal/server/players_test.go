package server_test

import (
	"context"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/care"
	"sabot/internal/live"
	"sabot/internal/wire"
)

// The pit finds players by the start of their name and sees each one's
// wallet, seats, limits, exclusion or block and last rounds (none of it was
// in the pit's reach but by the database). Staff are not
// players; a bad query is refused with the reason; players may not look.
func TestPitPlayers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, _ := careHarness(t)
	tb := h.table("vegas-s17", false, nil)
	ana, _, bob := h.player("ana", 100000), h.player("anabel", 5000), h.player("bob", 100)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(setLimit(t, ana, "loss", "day", amt(20000)))
	var bv care.BlockView
	must(0, h.admin.Do(ctx, "POST", "/api/admin/players/anabel/block", care.BlockRequest{Reason: "fraud"}, &bv))
	must(0, h.admin.Do(ctx, "POST", "/api/admin/staff", live.StaffRequest{Name: "andrea", Password: password, Role: sabot.RoleDealer}, nil))

	var ps []care.PlayerView
	must(0, h.admin.Do(ctx, "GET", "/api/admin/players?q=AN", nil, &ps))
	if len(ps) != 2 || ps[0].Name != "ana" || ps[1].Name != "anabel" {
		t.Fatalf("players AN: %+v", ps)
	}
	a, b := ps[0], ps[1]
	if a.Wallet == nil || *a.Wallet != 100000 || len(a.Seats) != 1 || a.Seats[0].Table != tb || a.Seats[0].Box != 2 ||
		len(a.Limits) != 1 || a.Limits[0].Kind != "loss" || a.Limits[0].Amount != 20000 || a.Blocked != nil || a.Exclusion != "" {
		t.Fatalf("ana as the pit sees her: %+v", a)
	}
	if b.Blocked == nil || b.Blocked.Reason != "fraud" || len(b.Seats) != 0 || *b.Wallet != 5000 {
		t.Fatalf("anabel as the pit sees her: %+v", b)
	}
	must(0, h.admin.Do(ctx, "GET", "/api/admin/players?limit=1", nil, &ps))
	if len(ps) != 1 {
		t.Fatalf("limit=1: %d players", len(ps))
	}
	wantCode(t, h.admin.Do(ctx, "GET", "/api/admin/players?q="+strings.Repeat("a", 65), nil, &ps), sabot.EINVALID, "at most 64")
	wantCode(t, h.admin.Do(ctx, "GET", "/api/admin/players?limit=51", nil, &ps), sabot.EINVALID, "")
	wantCode(t, bob.Do(ctx, "GET", "/api/admin/players", nil, &ps), sabot.EFORBIDDEN, "administrators only")
}
