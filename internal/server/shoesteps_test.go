package server_test

import (
	"context"
	"testing"

	"sabot"
	"sabot/internal/wire"
)

// AR-07, EG-02 over HTTP (000 item 5; 003 §10): a new spain table waits
// for its inspector's authorisation (the table's staff option names him;
// another inspector is refused), then for the cut of the player at the
// lowest seated box; the round is dealt once he cut, the shoe's report
// names both, and a restart while the table waits still waits.
func TestPlayerCut_EG02_OverHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	ines, otto := h.staff("ines", "inspector"), h.staff("otto", "inspector")
	tb := h.table("spain", false, map[string]string{"staff": "ines"})
	ana, ben := h.player("ana", 10000), h.player("ben", 10000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 100}))
	v := must(ana.Table(ctx, tb))
	if v.Shoe.Await != "authorise" || v.Waiting == nil || v.Waiting.Reason != "shoe_authorise" || v.Round != nil {
		t.Fatalf("the new table: shoe %+v, waiting %+v", v.Shoe, v.Waiting)
	}
	_, err := ana.Command(ctx, tb, "authorise-shuffle", wire.CommandRequest{})
	wantCode(t, err, sabot.EFORBIDDEN, "inspector")
	_, err = otto.Command(ctx, tb, "authorise-shuffle", wire.CommandRequest{})
	wantCode(t, err, sabot.EFORBIDDEN, "staff")
	must(ines.Command(ctx, tb, "authorise-shuffle", wire.CommandRequest{}))
	h.restart(slow)
	ana.URL, ben.URL = h.srv.URL(), h.srv.URL()
	v = must(ana.Table(ctx, tb))
	if v.Shoe.Await != "cut" || v.Shoe.Cutter != "ana" || v.Shoe.AuthorisedBy != "ines" || v.Shoe.CutMin != 1 || v.Shoe.CutMax != 311 {
		t.Fatalf("after a restart: shoe %+v", v.Shoe)
	}
	_, err = ben.Command(ctx, tb, "cut-shoe", wire.CommandRequest{Value: 150})
	wantCode(t, err, sabot.EFORBIDDEN, "ana's")
	_, err = ana.Command(ctx, tb, "cut-shoe", wire.CommandRequest{Value: 312})
	wantCode(t, err, sabot.ECONFLICT, "EG-02")
	must(ana.Command(ctx, tb, "cut-shoe", wire.CommandRequest{Value: 150}))
	v = must(ana.Table(ctx, tb))
	if v.Round == nil || v.Round.No != 1 || v.Shoe.Await != "" || v.Shoe.CutBy != "ana" {
		t.Fatalf("after the cut: round %+v, shoe %+v", v.Round, v.Shoe)
	}
	rep := must(ana.Shoe(ctx, v.Shoe.ID, 0, 10))
	if !rep.Steps || rep.AuthorisedBy != "ines" || rep.CutBy != "ana" || rep.CutRole != "player" || rep.CutAt != 150 {
		t.Fatalf("the shoe's report: %+v", rep)
	}
	checkLedger(t, h.st)
}
