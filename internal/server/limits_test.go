package server_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot"
	"sabot/internal/server"
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

// next reads the socket until the answer to a command.
func answerTo(t *testing.T, f *server.Feed, id string) *server.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		m, err := f.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for the answer to %s: %v", id, err)
		}
		if (m.Type == "result" || m.Type == "error") && m.CommandID == id {
			return m
		}
	}
}

// Issue 11, finding 11: an internal error on a WebSocket command is logged
// with its table, its command and its cause; the player reads only
// "internal error".
func TestWSInternalErrorLogged(t *testing.T) {
	ctx := context.Background()
	logs := &syncBuffer{}
	st := newMemStore()
	h := &harness{t: t, st: st, log: slog.New(slog.NewTextHandler(logs, nil))}
	h.start(server.Timing{BetWindow: time.Hour})
	tb := h.table("vegas-s17", false, nil)
	ana := h.player("ana", 1000)
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	st.failAppend(0, errors.New("disk on fire"))
	id := must(f.Send(ctx, server.CommandRequest{Op: "sit", Box: 3, CommandID: "sit-3"}))
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
