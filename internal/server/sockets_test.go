package server_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/server"
	"sabot/internal/wire"
)

// syncBuffer is a log sink that a test reads while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// answerTo reads the socket until the answer to a command.
func answerTo(t *testing.T, f *client.Feed, id string) *wire.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		m, err := f.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for the answer to %s: %v", id, err)
		}
		if (m.Type == "result" || m.Type == "error" || m.Type == "snapshot") && m.CommandID == id {
			return m
		}
	}
}

// An internal error on a WebSocket command is logged
// with its table, its command and its cause; the player reads only
// "internal error".
func TestWSInternalErrorLogged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	logs := &syncBuffer{}
	st := newMemStore()
	h := &harness{t: t, st: st, log: slog.New(slog.NewTextHandler(logs, nil))}
	h.start(actor.Timing{BetWindow: time.Hour})
	tb := h.table("vegas-s17", false, nil)
	ana := h.player("ana", 1000)
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	st.failAppend(0, errors.New("disk on fire"))
	id := must(f.Send(ctx, wire.CommandRequest{Op: "sit", Box: 3, CommandID: "sit-3"}))
	m := answerTo(t, f, id)
	if m.Type != "error" || m.Code != sabot.EINTERNAL || m.Error != "internal error" {
		t.Fatalf("the answer to the failed sit: %+v", m)
	}
	line := ""
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "WebSocket command") {
			line = l
		}
	}
	for _, want := range []string{"level=ERROR", "table=" + itoa(tb), "op=sit", "command_id=sit-3", "user=ana", "disk on fire"} {
		if !strings.Contains(line, want) {
			t.Fatalf("the log line %q lacks %q; the log:\n%s", line, want, logs.String())
		}
	}
}

// clock is a settable clock for Server.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// closedWith reads a socket until it closes and returns the close status
// (-1: closed without a status).
func closedWith(t *testing.T, f *client.Feed) websocket.StatusCode {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, err := f.Next(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatal("the socket stayed open")
			}
			return websocket.CloseStatus(err)
		}
	}
}

// A user holds at most MaxSockets WebSockets (8 by
// default): the next is refused, 429 with Retry-After, before the upgrade;
// other users are not counted with him, and a socket closed frees its slot.
func TestWSSocketsPerUserLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, actor.Timing{})
	tb := h.table("vegas-s17", false, nil)
	ana, ben := h.player("ana", 0), h.player("ben", 0)
	var open []*client.Feed
	for range server.DefaultMaxSockets {
		open = append(open, must(ana.Subscribe(ctx, tb, "", 0)))
	}
	defer func() {
		for _, f := range open {
			f.Close()
		}
	}()
	_, resp, err := websocket.Dial(ctx, strings.Replace(h.srv.URL(), "http", "ws", 1)+"/api/tables/"+itoa(tb)+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + ana.Token}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("socket %d of one user: %v %+v; want 429 with Retry-After", server.DefaultMaxSockets+1, err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), sabot.ETHROTTLED) || !strings.Contains(string(body), "at most 8") {
		t.Fatalf("the refusal says %s", body)
	}
	f := must(ben.Subscribe(ctx, tb, "", 0)) // another user
	f.Close()
	open[0].Close()
	open = open[1:]
	eventually(t, "the closed socket's slot free again", func() bool {
		f, err := ana.Subscribe(ctx, tb, "", 0)
		if err == nil {
			open = append(open, f)
		}
		return err == nil
	})
}

// The server reads at most SocketBurst messages of a
// socket at once, then SocketRate a second: a flood waits its turn (the
// clock is stopped: the message after the burst waits until it moves).
func TestWSFloodLimited(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := &clock{t: time.Now()}
	h := &harness{t: t, set: func(s *server.Server) { s.Now = clk.now }}
	h.st = openStore(t, t.TempDir()+"/sabot.db")
	h.start(actor.Timing{BetWindow: time.Hour})
	tb := h.table("vegas-s17", false, nil)
	ana := h.player("ana", 1000)
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	for i := range server.DefaultSocketBurst + 1 {
		if _, err := f.Send(ctx, wire.CommandRequest{Op: "snapshot", CommandID: "s" + itoa(int64(i))}); err != nil {
			t.Fatal(err)
		}
	}
	answers := make(chan string, 2*server.DefaultSocketBurst)
	go func() {
		for {
			m, err := f.Next(ctx)
			if err != nil {
				close(answers)
				return
			}
			if m.CommandID != "" {
				answers <- m.CommandID
			}
		}
	}()
	for i := range server.DefaultSocketBurst {
		if id := <-answers; id != "s"+itoa(int64(i)) {
			t.Fatalf("answer %d is to %q", i, id)
		}
	}
	select {
	case id := <-answers:
		t.Fatalf("message %d of a burst answered at once: %q", server.DefaultSocketBurst+1, id)
	case <-time.After(300 * time.Millisecond): // held back, as it should be
	}
	clk.add(time.Second / server.DefaultSocketRate)
	select {
	case id := <-answers:
		if want := "s" + itoa(server.DefaultSocketBurst); id != want {
			t.Fatalf("after the wait, the answer is to %q, want %q", id, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the message held back was never answered")
	}
}

// After logout, a command on a socket the session
// opened is not run, and the socket closes.
func TestWSLogoutRevokesSockets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, actor.Timing{BetWindow: time.Hour})
	tb := h.table("vegas-s17", false, nil)
	ana := h.player("ana", 1000)
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	if m := answerTo(t, f, must(f.Send(ctx, wire.CommandRequest{Op: "sit", Box: 1}))); m.Type != "result" {
		t.Fatalf("sit before logout: %+v", m)
	}
	if err := ana.Do(ctx, "POST", "/api/logout", nil, nil); err != nil {
		t.Fatal(err)
	}
	f.Send(ctx, wire.CommandRequest{Op: "bet", Box: 1, Stake: 100}) // may find the socket closing
	if st := closedWith(t, f); st != websocket.StatusPolicyViolation {
		t.Fatalf("the socket of a session logged out closed with %v", st)
	}
	if v := must(h.admin.Table(ctx, tb)); len(v.Bets) != 0 {
		t.Fatalf("a bet sent after logout was run: %+v", v.Bets)
	}
	if _, err := ana.Subscribe(ctx, tb, "", 0); err == nil {
		t.Fatal("a socket opened with the token of a session logged out")
	}
}

// A session idle too long ends for its sockets too: a
// command on an open socket is refused and not run, the socket closes, the
// session is gone. Commands on the socket are uses of the session: a
// player who plays only over the socket stays logged in.
func TestWSIdleSessionRevokesSockets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := &clock{t: time.Now()}
	h := &harness{t: t, set: func(s *server.Server) { s.Now = clk.now }}
	h.st = openStore(t, t.TempDir()+"/sabot.db")
	idle := time.Minute
	h.start(actor.Timing{BetWindow: time.Hour, SessionIdle: idle})
	tb := h.table("vegas-s17", false, nil)
	ana := h.player("ana", 1000)
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	for range 4 { // two idle times of play over the socket only
		clk.add(idle / 2)
		if m := answerTo(t, f, must(f.Send(ctx, wire.CommandRequest{Op: "snapshot", CommandID: "s" + clk.now().String()}))); m.Type == "error" {
			t.Fatalf("a command while the socket keeps the session: %+v", m)
		}
	}
	if _, err := ana.Me(ctx); err != nil {
		t.Fatalf("the session used over the socket expired: %v", err)
	}
	clk.add(idle + time.Second)
	id := must(f.Send(ctx, wire.CommandRequest{Op: "sit", Box: 1}))
	if m := answerTo(t, f, id); m.Type != "error" || m.Code != sabot.EUNAUTHORIZED {
		t.Fatalf("a command after the session idled out: %+v", m)
	}
	if st := closedWith(t, f); st != websocket.StatusPolicyViolation {
		t.Fatalf("the socket of an idle session closed with %v", st)
	}
	if v := must(h.admin.Table(ctx, tb)); len(v.Seats) != 0 {
		t.Fatalf("the sit after the session idled out was run: %+v", v.Seats)
	}
	if _, err := ana.Me(ctx); sabot.ErrorCode(err) != sabot.EUNAUTHORIZED {
		t.Fatalf("the idle session still answers: %v", err)
	}
}

// AR-21: a box held with no round dealt is given up
// after SeatIdle: one player holding boxes and never betting keeps them
// from the others no longer than that, and no longer holds up the deal.
func TestSeatIdleGivenUp_AR21(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, actor.Timing{BetWindow: time.Hour, SeatIdle: 300 * time.Millisecond})
	tb := h.table("vegas-s17", false, nil)
	ana, eve := h.player("ana", 1000), h.player("eve", 1000)
	tp := listen(t, ana, tb)
	for box := 1; box <= 3; box++ {
		must(eve.Command(ctx, tb, "sit", wire.CommandRequest{Box: box}))
	}
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 4}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 4, Stake: 100})) // the window: an hour
	eventually(t, "eve's boxes given up", func() bool {
		for _, s := range must(ana.Table(ctx, tb)).Seats {
			if s.Player == "eve" {
				return false
			}
		}
		return true
	})
	v := must(ana.Table(ctx, tb))
	if len(v.Seats) != 1 || v.Seats[0].Player != "ana" || v.Round == nil || v.Round.No != 1 {
		t.Fatalf("seats %+v, round %+v: want ana's round dealt once eve's boxes were given up", v.Seats, v.Round)
	}
	releases := 0
	for _, m := range tp.all() {
		if strings.Contains(m, `"kind":"release"`) && strings.Contains(m, `"player":"eve"`) {
			releases++
		}
	}
	if releases != 3 {
		t.Fatalf("%d release events for eve's 3 boxes", releases)
	}
	// Recovery replays the releases.
	h.restart(actor.Timing{BetWindow: time.Hour})
	ana.URL, eve.URL = h.srv.URL(), h.srv.URL()
	for _, s := range must(ana.Table(ctx, tb)).Seats {
		if s.Player == "eve" {
			t.Fatalf("after a restart eve holds box %d again", s.Box)
		}
	}
	must(eve.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1})) // free for anyone
}
