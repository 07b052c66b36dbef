package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/recall"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// tap records every message a client receives on a table's WebSocket.
type tap struct {
	mu   sync.Mutex
	msgs []string
}

func (tp *tap) add(s string) {
	tp.mu.Lock()
	tp.msgs = append(tp.msgs, s)
	tp.mu.Unlock()
}

func (tp *tap) all() []string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]string(nil), tp.msgs...)
}

func listen(t *testing.T, c *client.Client, table int64) *tap {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f, err := c.Subscribe(ctx, table, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	tp := &tap{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			b, err := f.NextRaw(ctx)
			if err != nil {
				return
			}
			tp.add(string(b))
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return tp
}

// get fetches a path with a client's token and returns the body as sent.
func get(t *testing.T, c *client.Client, path string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", c.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, 10*time.Second, what, cond)
}

// The hole card (AR-09) and a face-down double card (AR-17) never leave the
// server before they are turned: every message sent to every client, on
// the WebSocket and over HTTP, is inspected.
func TestHiddenCardsNeverSent_AR09_AR17(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("argentina", true, map[string]string{"min_bets_to_start": "1"})
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	taps := []*tap{listen(t, ana, tb), listen(t, ben, tb), listen(t, h.admin, tb)}
	var polled []string
	poll := func() {
		for _, c := range []*client.Client{ana, ben, h.admin} {
			polled = append(polled, get(t, c, "/api/tables/"+itoa(tb)), get(t, c, "/api/me"), get(t, c, "/api/tables"))
		}
	}
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	// ana 5+6 = 11 doubles and gets 4D face down; ben 10+8; the dealer 9 up, QC in the hole.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "5S TH 9D 6C 8H QC 4D"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 100}))
	poll()
	v := must(ana.Table(ctx, tb))
	if got := strings.Join(v.Round.Dealer.Cards, " "); got != "9D "+wire.Hidden || v.Round.Dealer.Total != 9 {
		t.Fatalf("dealer shows %q total %d", got, v.Round.Dealer.Total)
	}
	_, err := ana.Round(ctx, v.Round.ID)
	wantCode(t, err, sabot.ECONFLICT, "in play")
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "double", Box: 1}))
	poll()
	v = must(ana.Table(ctx, tb))
	if got := v.Round.Hands[0]; strings.Join(got.Cards, " ") != "5S 6C "+wire.Hidden || got.Total != 11 {
		t.Fatalf("ana's doubled hand shows %v total %d", got.Cards, got.Total)
	}
	must(ben.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 2}))
	waitRound(t, ana, tb, 1)
	eventually(t, "every client got the settlement", func() bool {
		for _, tp := range taps {
			if m := tp.all(); len(m) == 0 || !strings.Contains(m[len(m)-1], `"settle"`) && !strings.Contains(strings.Join(m, ""), `"kind":"settle"`) {
				return false
			}
		}
		return true
	})
	for _, secret := range []string{"QC", "4D"} {
		for _, body := range polled {
			if strings.Contains(body, `"`+secret+`"`) {
				t.Fatalf("%s was sent before it was turned: %s", secret, body)
			}
		}
		for i, tp := range taps {
			revealed := false
			for _, m := range tp.all() {
				if !strings.Contains(m, `"`+secret+`"`) {
					continue
				}
				var msg wire.Message
				json.Unmarshal([]byte(m), &msg)
				if !revealed && (msg.Event == nil || msg.Event.Kind != "reveal" || msg.Event.Card != secret) {
					t.Fatalf("client %d got %s before its reveal: %s", i, secret, m)
				}
				revealed = true
			}
			if !revealed {
				t.Fatalf("client %d never saw %s turned", i, secret)
			}
		}
	}
	// 9D QC: 19 beats ana's doubled 15 and pushes... ben's 18 loses.
	if w := wallet(t, ana); w != 800 {
		t.Fatalf("ana: %d", w)
	}
	checkLedger(t, h.st)
}

func itoa(n int64) string { return strings.TrimSpace(strings.Replace(jsonNum(n), "\n", "", -1)) }

func jsonNum(n int64) string { b, _ := json.Marshal(n); return string(b) }

// An absent player never holds up the others (GLI-19 §4.16.3): the decision
// timer applies the published default, recorded as by timeout: a hand at 11
// or less draws (VE-06), then stands.
func TestDecisionTimeout_VE06(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, actor.Timing{BetWindow: time.Minute, Decision: 50 * time.Millisecond, Window: 50 * time.Millisecond})
	tb := h.table("venice", true, nil)
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "5S TS 7D 4H 8S TC 9C 2D"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 100}))
	v := waitRound(t, ana, tb, 1)
	rec := must(ana.Round(ctx, v.Round.ID))
	var got []string
	for _, d := range rec.Decisions {
		got = append(got, d.By+" "+d.Action.Player+" "+d.Action.Kind)
	}
	want := "timeout ana hit, timeout ana stand, timeout ben stand"
	if strings.Join(got, ", ") != want {
		t.Fatalf("decisions %q, want %q", strings.Join(got, ", "), want)
	}
	if rec.Net["ana"] != 100 || rec.Net["ben"] != 0 {
		t.Fatalf("net %v", rec.Net)
	}
	if !strings.Contains(v.Rules.OnTimeout, "VE-06") {
		t.Fatalf("the default decisions are not published: %q", v.Rules.OnTimeout)
	}
	checkLedger(t, h.st)
}

// A client that reconnects with its epoch and last sequence number gets
// the events it missed; after a server restart it gets a snapshot.
func TestReconnectResync(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 1000)
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 9H 7C 8D"}))
	f := must(ana.Subscribe(ctx, tb, "", 0))
	snap := must(f.Next(ctx))
	if snap.Type != "snapshot" || snap.Epoch == "" {
		t.Fatalf("first message %+v", snap)
	}
	f.Close()
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 3}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 3, Stake: 10}))
	f = must(ana.Subscribe(ctx, tb, snap.Epoch, snap.Seq))
	m := must(f.Next(ctx))
	if m.Type != "event" || m.Seq != snap.Seq+1 || m.Event.Kind != "sit" {
		t.Fatalf("after reconnecting: %+v", m)
	}
	f.Close()
	h.restart(slow)
	ana.URL = h.srv.URL()
	f = must(ana.Subscribe(ctx, tb, snap.Epoch, snap.Seq))
	defer f.Close()
	m = must(f.Next(ctx))
	if m.Type != "snapshot" || m.Epoch == snap.Epoch || m.Table.Round == nil || m.Table.Round.Phase == "betting" {
		t.Fatalf("after a restart: %+v", m)
	}
	// Commands on the socket: the events come first, then the answer.
	id := must(f.Send(ctx, wire.CommandRequest{Op: "act", Action: "stand", Box: 3}))
	var kinds []string
	for {
		m := must(f.Next(ctx))
		if m.Type == "result" || m.Type == "error" {
			if m.CommandID != id || m.Type != "result" {
				t.Fatalf("answer %+v", m)
			}
			break
		}
		kinds = append(kinds, m.Event.Kind)
	}
	if len(kinds) == 0 || kinds[0] != "action" {
		t.Fatalf("events before the answer: %v", kinds)
	}
	// A snapshot asked for on the socket carries the epoch and the seq of
	// the last event it includes, as the first one does (docs/protocol.md).
	id = must(f.Send(ctx, wire.CommandRequest{Op: "snapshot"}))
	for {
		a := must(f.Next(ctx))
		if a.CommandID != id {
			continue
		}
		if a.Type != "snapshot" || a.Epoch != m.Epoch || a.Seq <= m.Seq || a.Table == nil {
			t.Fatalf("the asked snapshot %+v after %d events since the first (epoch %s, seq %d)", a, len(kinds), m.Epoch, m.Seq)
		}
		break
	}
}

// A round in play when the server stops resumes from the log when it
// starts again, with the same cards, and settles; nothing lost or created.
func TestRestartResumesRound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", true, nil)
	ana, ben := h.player("ana", 1000), h.player("ben", 1000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	// ana 8+8 splits; ben 10+9; dealer 6 up.
	must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "8S TS 6D 8H 9S 3C TD 2H KC 7D"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 50}))
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "split", Box: 1}))
	before := must(ana.Table(ctx, tb))
	if w := wallet(t, ana); w != 800 {
		t.Fatalf("after the split: %d", w)
	}
	h.restart(slow)
	ana.URL, ben.URL = h.srv.URL(), h.srv.URL()
	after := must(ana.Table(ctx, tb))
	b1, _ := json.Marshal(before.Round)
	b2, _ := json.Marshal(after.Round)
	if string(b1) != string(b2) {
		t.Fatalf("the round changed across the restart:\n%s\n%s", b1, b2)
	}
	// ana: 8+3 = 11 stands, 8+T = 18 stands; ben stands.
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1, Hand: 1}))
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1, Hand: 2}))
	must(ben.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 2}))
	v := waitRound(t, ana, tb, 1)
	rep, _, err := recall.ReplayRound(ctx, h.st, v.Round.ID)
	if err != nil || !rep.OK() {
		t.Fatalf("replay: %v %v", err, rep)
	}
	checkLedger(t, h.st)
}
