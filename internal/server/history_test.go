package server_test

import (
	"context"
	"fmt"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/wire"
)

// TestTableHistory: GET /api/tables/{id}/history
// is the player's last rounds at one table, the newest first, with the
// dealer's hand and only the player's own bets; its limit is bounded, an
// unknown table is not found, and it needs a login.
func TestTableHistory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	other := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 10000)
	bea := h.player("bea", 10000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	ids := playRounds(t, h, ana, tb, 2)

	// A round with both: box 1 (ana) 10 7, box 2 (bea) 10 8, the dealer 6 10
	// draws 9 and busts.
	must(bea.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS TH 6D 7C 8C TD 9C"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 200}))
	must(bea.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 300}))
	v := must(ana.Table(ctx, tb))
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	must(bea.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 2}))
	both := waitRound(t, ana, tb, v.Round.No).Round.ID

	get := func(c *client.Client, path string) ([]recall.HistoryRound, error) {
		var out []recall.HistoryRound
		err := c.Do(ctx, "GET", path, nil, &out)
		return out, err
	}
	page := must(get(ana, fmt.Sprintf("/api/tables/%d/history", tb)))
	if len(page) != 3 || page[0].ID != both || page[1].ID != ids[1] || page[2].ID != ids[0] {
		t.Fatalf("ana's history: %+v; rounds %v then %s", page, ids, both)
	}
	r := page[0]
	if r.Dealer.Total != 25 || len(r.Dealer.Cards) != 3 || r.Net != 200 || len(r.Bets) != 1 {
		t.Fatalf("the round with both: %+v", r)
	}
	if b := r.Bets[0]; b.Box != 1 || b.Stake != 200 || b.Net != 200 || b.Result != "win" || b.Total != 17 {
		t.Fatalf("ana's bet: %+v", b)
	}
	// Bea sees her one round, with her bet alone.
	page = must(get(bea, fmt.Sprintf("/api/tables/%d/history?limit=50", tb)))
	if len(page) != 1 || page[0].ID != both || len(page[0].Bets) != 1 || page[0].Bets[0].Box != 2 || page[0].Net != 300 {
		t.Fatalf("bea's history: %+v", page)
	}
	page = must(get(ana, fmt.Sprintf("/api/tables/%d/history?limit=1", tb)))
	if len(page) != 1 || page[0].ID != both {
		t.Fatalf("a page of 1: %+v", page)
	}
	if page = must(get(ana, fmt.Sprintf("/api/tables/%d/history", other))); len(page) != 0 {
		t.Fatalf("another table's history: %+v", page)
	}
	for _, q := range []string{"limit=0", "limit=51", "limit=x"} {
		_, err := get(ana, fmt.Sprintf("/api/tables/%d/history?%s", tb, q))
		wantCode(t, err, sabot.EINVALID, "limit")
	}
	_, err := get(ana, "/api/tables/999/history")
	wantCode(t, err, sabot.ENOTFOUND, "")
	_, err = get(&client.Client{URL: h.srv.URL()}, fmt.Sprintf("/api/tables/%d/history", tb))
	wantCode(t, err, sabot.EUNAUTHORIZED, "")
}
