package server_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/server"
)

// The return watched (issue 29): a player dealt a blackjack round after
// round takes the table's return far above the certified figure; the
// metrics say so, and the round that takes it out of its band (narrowed
// here to ±2 standard deviations from 3 rounds on) writes one rtp-outside
// significant event, not one a round.
func TestRTPWatch(t *testing.T) {
	ctx := context.Background()
	h := &harness{t: t, st: openStore(t, t.TempDir()+"/sabot.db"), set: func(s *server.Server) { s.RTPWatch = true }}
	h.start(slow)
	if err := server.NarrowRTPWatch(h.srv, 2, 3, "vegas-s17", nil); err != nil {
		t.Fatal(err)
	}
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", server.CommandRequest{Box: 1}))
	const rounds = 6
	for n := 1; n <= rounds; n++ {
		// ana A and K, the dealer 6 and T: a blackjack paid 3:2.
		must(h.admin.Command(ctx, tb, "force-cards", server.CommandRequest{Cards: "AS 6D KH TD"}))
		must(ana.Command(ctx, tb, "bet", server.CommandRequest{Box: 1, Stake: 1000}))
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
}
