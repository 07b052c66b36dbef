package server

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sabot/internal/testwait"
)

// The WebSocket writer's corking: messages written while corked leave
// together at uncork, whole and in order; control frames (a pong to the
// client's ping) and messages written while not corked go straight out.
func TestCorkingWriter(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	uncorked, stop := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &corkingWriter{ResponseWriter: w}
		conn, err := websocket.Accept(cw, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.CloseNow()
		go func() { // reads, so that pings are answered
			for {
				if _, _, err := conn.Read(ctx); err != nil {
					return
				}
			}
		}()
		cw.cork()
		for _, m := range []string{"one", "two", strings.Repeat("three", 1000)} {
			if err := conn.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
				t.Error(err)
				return
			}
		}
		if n := cw.corked(); n < 5000 {
			t.Errorf("%d bytes kept while corked, want the three messages", n)
		}
		if err := cw.uncork(); err != nil {
			t.Error(err)
		}
		close(uncorked)
		conn.Write(ctx, websocket.MessageText, []byte("four")) // not corked: at once
		<-stop
	}))
	defer srv.Close()
	defer close(stop)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	var got []string
	for range 4 {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(data))
	}
	<-uncorked
	if len(got[2]) != 5000 || got[0] != "one" || got[1] != "two" || got[3] != "four" {
		t.Fatalf("got %q…", []string{got[0], got[1], got[2][:10], got[3]})
	}
	go conn.Read(ctx) // the client reads too, for the pong
	if err := conn.Ping(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}
}

// A write blocked on a client that does not read ends at the deadline set
// from another goroutine (at shutdown): setting it does not wait for the
// blocked write.
func TestCorkingWriterDeadline(t *testing.T) {
	t.Parallel()
	server, client := net.Pipe() // a write blocks until the other end reads
	defer server.Close()
	defer client.Close()
	cw := &corkingWriter{raw: server, conn: server}
	cw.cork()
	cw.Write([]byte("nobody reads this"))
	done := make(chan error, 1)
	go func() { done <- cw.uncork() }()
	testwait.Pause(20 * time.Millisecond) // the write blocks meanwhile (nothing tells when it has)
	cw.setWriteDeadline(time.Now().Add(20 * time.Millisecond))
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the blocked write succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the blocked write did not end at its deadline")
	}
}
