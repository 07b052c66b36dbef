package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"testing"
	"time"

	"sabot"
	pitreport "sabot/internal/report"
	"sabot/internal/server"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// The server brings the reports' sums by hour and day up to its tables' logs every
// RollupEvery (docs/pit.md, "Rollups"): after three rounds its mark
// reaches the last settlement, the hours' rows count the three rounds and
// their stakes, and /metrics counts the records it read.
func TestServerRollsUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := &harness{t: t, st: openStore(t, t.TempDir()+"/sabot.db"), set: func(s *server.Server) { s.RollupEvery = 20 * time.Millisecond }}
	h.start(slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	const rounds = 3
	for n := 1; n <= rounds; n++ {
		must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "AS 6D KH TD"}))
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
		waitRound(t, ana, tb, n)
	}
	settles := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle}, TableID: tb}))
	if len(settles) != rounds {
		t.Fatalf("%d settlements", len(settles))
	}
	last := settles[len(settles)-1]
	ro := h.st.(sabot.Rollups)
	poll := testwait.NewPoll(30 * time.Second)
	for _, kind := range pitreport.RollupKinds() {
		for ; ; poll.Next() {
			marks, _, err := ro.RollupRows(ctx, kind, tb)
			if err != nil {
				t.Fatal(err)
			}
			if marks[tb] >= last.Seq {
				break
			}
			if poll.Expired() {
				t.Fatalf("the rollup's mark of %s is at %d after 30 s, the last settlement at %d", kind, marks[tb], last.Seq)
			}
		}
	}
	first := settles[0].Created.Truncate(time.Hour)
	_, rows, err := ro.RollupRows(ctx, pitreport.RollupTables, tb, sabot.RollupRange{Span: sabot.RollupHour, From: first, To: last.Created.Truncate(time.Hour).Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var n, initial int64
	for _, r := range rows {
		var sums struct {
			Rules map[string]struct {
				Rounds  int64 `json:"rounds"`
				Initial int64 `json:"initial"`
				Win     int64 `json:"win"`
			} `json:"rules"`
		}
		j, err := pitreport.RollupJSON(pitreport.RollupTables, r.Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(j, &sums); err != nil {
			t.Fatal(err)
		}
		for _, g := range sums.Rules {
			n += g.Rounds
			initial += g.Initial
			if g.Win != -1500*g.Rounds { // a blackjack paid 3:2 each round
				t.Errorf("the row of %s: the house won %d over %d rounds", r.Start, g.Win, g.Rounds)
			}
		}
	}
	if n != rounds || initial != rounds*1000 {
		t.Fatalf("the rows count %d rounds and %d staked, want %d and %d", n, initial, rounds, rounds*1000)
	}
	// The players' report reads the rows: ana's three rounds, one session.
	pl, err := pitreport.PlayersReport(ctx, h.st, pitreport.NewTheories(), pitreport.Period{From: first, To: first.Add(48 * time.Hour)}, pitreport.PlayersOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Players) != 1 || pl.Players[0].Rounds != rounds || pl.Players[0].Sessions != 1 || pl.Players[0].Win != -1500*rounds {
		t.Errorf("the players' report: %+v", pl.Players)
	}
	resp, err := http.Get(h.srv.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !regexp.MustCompile(`(?m)^sabot_rollup_records_total [1-9]`).Match(body) {
		t.Errorf("metrics: no records rolled up counted")
	}
}
