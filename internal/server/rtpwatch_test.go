package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/recall"
	pitreport "sabot/internal/report"
	"sabot/internal/server"
	"sabot/internal/wire"
)

// The return watched: a player dealt a blackjack round after
// round takes the table's return far above the certified figure; the
// metrics say so, and the round that takes it out of its band (narrowed
// here to ±2 standard deviations from 3 rounds on) writes one rtp-outside
// significant event, not one a round.
func TestRTPWatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := &harness{t: t, st: openStore(t, t.TempDir()+"/sabot.db"), set: func(s *server.Server) { s.RTPWatch = true }}
	h.start(slow)
	if err := server.NarrowRTPWatch(h.srv, 2, 3, "vegas-s17", nil); err != nil {
		t.Fatal(err)
	}
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	const rounds = 6
	for n := 1; n <= rounds; n++ {
		// ana A and K, the dealer 6 and T: a blackjack paid 3:2.
		must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "AS 6D KH TD"}))
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
		waitRound(t, ana, tb, n)
	}
	resp, err := http.Get(h.srv.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	id := strconv.FormatInt(tb, 10)
	for _, want := range []string{`sabot_rtp{table="` + id + `"} 2.5`, `sabot_rtp_rounds{table="` + id + `"} 6`, `sabot_rtp_certified{table="` + id + `"} 0.9959`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics: no %s", want)
		}
	}
	recs := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: tb}))
	outside := 0
	for _, r := range recs {
		if strings.Contains(string(r.Payload), `"rtp-outside"`) {
			outside++
			if !strings.Contains(string(r.Payload), "return to player is 250.0000 %") {
				t.Errorf("the event says %s", r.Payload)
			}
		}
	}
	if outside != 1 {
		t.Errorf("%d rtp-outside events over %d rounds out of the band, want 1", outside, rounds)
	}
	// The pit words it in its language from its figures (event.rtpOutside):
	// the return over the rounds watched when it crossed, the third.
	evs := must(recall.Events(ctx, h.st, recall.EventQuery{Table: tb}))
	worded := 0
	for _, e := range evs {
		if len(e.Words) == 1 && e.Words[0].Key == "rtpOutside" {
			worded++
			if p := e.Words[0].Params; p["rtp"] != 250.0 || p["n"] != int64(3) {
				t.Errorf("rtp-outside's values: %v", p)
			}
		}
	}
	if worded != 1 {
		t.Errorf("%d rtp-outside events worded by their figures, want 1", worded)
	}
}

// The pit's reports over HTTP: the tables', the players' and the count's,
// administrators only, a period refused with its reason.
func TestReportsOverHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	for n := 1; n <= 3; n++ {
		// ana 10 and 6 against a 10 up: she stands (an error against the
		// exact play, which hits or surrenders), the dealer's 10 and 7 win.
		must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS TD 6H 7C"}))
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
		must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
		waitRound(t, ana, tb, n)
	}
	get := func(c *client.Client, path string, v any) int {
		t.Helper()
		req, _ := http.NewRequest("GET", h.srv.URL()+path, nil)
		req.Header.Set("Authorization", "Bearer "+c.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if v != nil && resp.StatusCode == 200 {
			if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
				t.Fatal(err)
			}
		}
		return resp.StatusCode
	}
	var tables pitreport.Tables
	if code := get(h.admin, "/api/admin/reports/tables", &tables); code != 200 || tables.Total.Rounds != 3 || tables.Total.Win != 3000 ||
		tables.Total.LedgerHouseNet == nil || *tables.Total.LedgerHouseNet != 3000 {
		t.Fatalf("tables: %d %+v", code, tables.Total)
	}
	var players pitreport.Players
	if code := get(h.admin, "/api/admin/reports/players?player=ana", &players); code != 200 || len(players.Players) != 1 ||
		players.Players[0].Errors != 3 || players.Players[0].ErrorCost <= 0 {
		t.Fatalf("players: %d %+v", code, players.Players)
	}
	var adv pitreport.Advantage
	if code := get(h.admin, "/api/admin/reports/advantage", &adv); code != 200 || len(adv.Players) != 1 || adv.Players[0].HiLo.N != 3 {
		t.Fatalf("advantage: %d %+v", code, adv.Players)
	}
	if code := get(ana, "/api/admin/reports/tables", nil); code != http.StatusForbidden {
		t.Errorf("a player asked for the report: %d", code)
	}
	for _, q := range []string{"?from=yesterday", "?from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z", "?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z"} {
		if code := get(h.admin, "/api/admin/reports/tables"+q, nil); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", q, code)
		}
	}
}
