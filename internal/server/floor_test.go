package server_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"sabot"
	"sabot/internal/care"
	"sabot/internal/wire"
)

// The pit's floor is one answer (GET /api/admin/floor): every table with
// its state and seats, its win over the pit's day against the
// theoretical, each seated player's block or exclusion and his rating
// over the pit's day (the house's win); staff only, as
// /api/admin/players; a bad ?from= is refused with the reason.
func TestPitFloorInOneAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	empty := h.table("vegas-s17", false, nil)
	ana, bob := h.player("ana", 10000), h.player("bob", 100)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	playRounds(t, h, ana, tb, 2) // ana wins 100 a round
	dora := h.staff("dora", "dealer")

	from := url.QueryEscape(time.Now().Add(-time.Hour).UTC().Format(time.RFC3339))
	var f care.FloorView
	must(0, h.admin.Do(ctx, "GET", "/api/admin/floor?from="+from, nil, &f))
	if len(f.Tables) != 2 || f.Truncated {
		t.Fatalf("the floor: %+v", f)
	}
	byID := map[int64]care.FloorTable{}
	for _, x := range f.Tables {
		byID[x.Table.ID] = x
	}
	a, e := byID[tb], byID[empty]
	if a.Table == nil || a.Table.Name == "" || !a.Table.TestMode || len(a.Players) != 1 || e.Table == nil || len(e.Players) != 0 {
		t.Fatalf("the tables: %+v / %+v", a, e)
	}
	p := a.Players[0]
	if p.Box != 1 || p.Player != "ana" || p.WalkIn || p.Blocked != nil || p.Exclusion != "" {
		t.Fatalf("ana on the floor: %+v", p)
	}
	if r := p.Rating; r == nil || r.Rounds != 2 || r.AvgBet != 100 || r.Win != -200 {
		t.Fatalf("ana's rating today (the house's win -200): %+v", p.Rating)
	}

	// The table's day against its theoretical, in the same answer: the
	// floor no longer asks the tables report.
	if d := a.Today; d == nil || d.Rounds != 2 || d.Win != -200 || d.Theo <= 0 || d.BandLow >= d.Theo || d.BandHigh <= d.Theo || d.Outside {
		t.Fatalf("the table's day (2 rounds, the house's win -200, a positive theo inside its band): %+v", a.Today)
	}
	if d := e.Today; d != nil && d.Rounds != 0 {
		t.Fatalf("the empty table's day: %+v", d)
	}

	wantCode(t, h.admin.Do(ctx, "GET", "/api/admin/floor?from=yesterday", nil, &f), sabot.EINVALID, "from=")
	wantCode(t, h.admin.Do(ctx, "GET", "/api/admin/floor?from="+url.QueryEscape(time.Now().Add(-72*time.Hour).UTC().Format(time.RFC3339)), nil, &f), sabot.EINVALID, "48h")
	wantCode(t, bob.Do(ctx, "GET", "/api/admin/floor", nil, &f), sabot.EFORBIDDEN, "administrators only")
	wantCode(t, dora.Do(ctx, "GET", "/api/admin/floor", nil, &f), sabot.EFORBIDDEN, "administrators only")
}
