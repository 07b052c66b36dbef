package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/store"
	"sabot/internal/wire"
)

// The events of a decision that ends a round (the stand, the dealer's
// cards, the results, the round over) reach the player's socket in order,
// then its answer, in two writes to the connection at most: the events as
// one batch, corked into one write, and the answer.
func TestSocketWritesADecisionsEventsTogether(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.db")+"?_pragma=synchronous(OFF)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &Server{Store: st, TestMode: true, BcryptCost: 4, SocketRate: -1, CommandRate: -1, SocketPing: -1,
		Timing: actor.Timing{BetWindow: time.Hour, Decision: time.Hour, Window: time.Hour}}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	admin, err := s.CreateUser(ctx, "pit", "pit-password", true)
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.CreateTable(ctx, &sabot.Table{Name: "batch", Profile: "vegas-s17", Options: map[string]string{"min_bet": "100", "max_bet": "100000"}, TestMode: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.table(v.ID)
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.CreateUser(ctx, "eve", "player-password", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Credit(ctx, admin, wire.CreditRequest{CommandID: "credit", User: u.Name, Amount: 100000}); err != nil {
		t.Fatal(err)
	}
	c := &client.Client{URL: hs.URL}
	if _, err := c.Login(ctx, "eve", "player-password"); err != nil {
		t.Fatal(err)
	}
	conn, _, err := websocket.Dial(ctx, strings.Replace(hs.URL, "http", "ws", 1)+fmt.Sprintf("/api/tables/%d/ws", v.ID),
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + c.Token}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 22)
	var seq int64
	// send sends a command and reads until its answer: the events before it.
	send := func(id, req string) (events int) {
		t.Helper()
		msg := strings.Replace(req, "{", fmt.Sprintf(`{"command_id":%q,`, id), 1)
		if err := conn.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m wire.Message
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			switch m.Type {
			case wire.MsgSnapshot:
				seq = m.Seq
			case wire.MsgEvent:
				if m.Seq != seq+1 {
					t.Fatalf("%s: event seq %d after %d", req, m.Seq, seq)
				}
				seq = m.Seq
				events++
			case wire.MsgResult:
				if m.CommandID != id {
					t.Fatalf("%s: the answer to %s", req, m.CommandID)
				}
				return events
			default:
				t.Fatalf("%s: %s", req, data)
			}
		}
	}
	send("sit", `{"op":"sit","box":1}`)
	if msg := s.wsCommand(ctx, a, admin, []byte(`{"command_id":"cards","op":"force-cards","cards":"TS 6D 9H TD 9C"}`)); !strings.Contains(string(msg), `"type":"result"`) {
		t.Fatalf("force-cards: %s", msg)
	}
	// eve's bet deals (she is the only player): her T9 = 19 against the 6.
	if n := send("bet", `{"op":"bet","box":1,"stake":100}`); n < 3 {
		t.Fatalf("the bet that deals: %d events", n)
	}
	before := s.socketWrites.Load()
	events := send("stand", `{"op":"act","action":"stand","box":1}`)
	writes := s.socketWrites.Load() - before
	if events < 3 || writes > 2 {
		t.Fatalf("the stand that ends the round: %d events in %d writes, want them together (2 writes at most, with the answer)", events, writes)
	}
}
