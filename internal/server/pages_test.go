package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/server"
	"sabot/internal/wire"
)

// playRounds plays n rounds of one player at a test-mode table with a hole
// card: 10 and 7 against the dealer's 6 and 10, who draws 9 and busts.
func playRounds(t *testing.T, h *harness, c *client.Client, table int64, n int) []string {
	t.Helper()
	ctx := context.Background()
	var ids []string
	for range n {
		must(h.admin.Command(ctx, table, "force-cards", wire.CommandRequest{Cards: "TS 6D 7C TD 9C"}))
		must(c.Command(ctx, table, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
		v := must(c.Table(ctx, table))
		must(c.Command(ctx, table, "act", wire.CommandRequest{Action: "stand", Box: 1}))
		ids = append(ids, waitRound(t, c, table, v.Round.No).Round.ID)
	}
	return ids
}

// TestRoundsAndShoesPaginated: a player's rounds and a
// shoe's come a page at a time, ?limit= rounds before (or after) the last
// of the previous page; a page out of bounds is refused as invalid.
func TestRoundsAndShoesPaginated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 10000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	ids := playRounds(t, h, ana, tb, 5)

	var page []wire.RoundSummary
	get := func(c *client.Client, path string, out any) error { return c.Do(ctx, "GET", path, nil, out) }
	must(0, get(ana, "/api/me/rounds?limit=2", &page))
	if len(page) != 2 || page[0].ID != ids[4] || page[1].ID != ids[3] || page[0].Net != 100 {
		t.Fatalf("the first page of 2: %+v; rounds %v", page, ids)
	}
	must(0, get(ana, "/api/me/rounds?limit=2&before="+page[1].ID, &page))
	if len(page) != 2 || page[0].ID != ids[2] || page[1].ID != ids[1] {
		t.Fatalf("the second page: %+v", page)
	}
	must(0, get(ana, "/api/me/rounds?before="+page[1].ID, &page))
	if len(page) != 1 || page[0].ID != ids[0] {
		t.Fatalf("the last page: %+v", page)
	}
	must(0, get(ana, "/api/me/rounds", &page))
	if len(page) != 5 {
		t.Fatalf("the default page: %d rounds", len(page))
	}
	for _, q := range []string{"limit=0", "limit=201", "limit=x", "before=x", fmt.Sprintf("before=%d-99", tb)} {
		wantCode(t, get(ana, "/api/me/rounds?"+q, &page), sabot.EINVALID, "")
	}

	// The shoe's rounds: no login needed.
	anon := &client.Client{URL: h.srv.URL()}
	v := must(ana.Table(ctx, tb))
	var shoe wire.ShoeReport
	must(0, get(anon, "/api/shoes/"+v.Shoe.ID+"?limit=2", &shoe))
	if len(shoe.Rounds) != 2 || shoe.Rounds[0] != ids[0] || shoe.Next != ids[1] || shoe.Revealed || shoe.Seed != "" || len(shoe.Dealt) != 0 {
		t.Fatalf("the shoe's first page: %+v", shoe)
	}
	after := shoe.Next
	shoe = wire.ShoeReport{}
	must(0, get(anon, "/api/shoes/"+v.Shoe.ID+"?limit=2&after="+after, &shoe))
	if len(shoe.Rounds) != 2 || shoe.Rounds[0] != ids[2] || shoe.Next != ids[3] {
		t.Fatalf("the shoe's second page: %+v", shoe)
	}
	after = shoe.Next
	shoe = wire.ShoeReport{}
	must(0, get(anon, "/api/shoes/"+v.Shoe.ID+"?after="+after, &shoe))
	if len(shoe.Rounds) != 1 || shoe.Rounds[0] != ids[4] || shoe.Next != "" {
		t.Fatalf("the shoe's last page: %+v", shoe)
	}
	for _, q := range []string{"limit=0", "limit=201", "after=x"} {
		wantCode(t, get(anon, "/api/shoes/"+v.Shoe.ID+"?"+q, &shoe), sabot.EINVALID, "")
	}
}

// TestShoeReadsLimited: GET /api/shoes/{id} needs no
// login; the server answers at most ShoeReads a second, and refuses the
// rest with 429 and Retry-After.
func TestShoeReadsLimited(t *testing.T) {
	t.Parallel()
	st := openStore(t, t.TempDir()+"/sabot.db")
	srv := &server.Server{Store: st, ShoeReads: 2, BcryptCost: 4}
	if err := srv.Open(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	v := must(srv.CreateTable(context.Background(), &sabot.Table{Name: "t", Profile: "spain"}))
	codes := map[int]int{}
	var retry string
	for range 5 {
		resp, err := http.Get(srv.URL() + "/api/shoes/" + v.Shoe.ID)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes[resp.StatusCode]++
		if resp.StatusCode == http.StatusTooManyRequests {
			retry = resp.Header.Get("Retry-After")
		}
	}
	if codes[http.StatusOK] != 2 || codes[http.StatusTooManyRequests] != 3 {
		t.Fatalf("5 reads at once, 2 a second allowed: %v", codes)
	}
	if n, err := strconv.Atoi(retry); err != nil || n < 1 {
		t.Fatalf("Retry-After %q", retry)
	}
}
