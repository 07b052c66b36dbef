package client_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/coder/websocket"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/wire"
)

// A bot's decline refused because the insurance window had closed (its
// timer ran out while the decline was on its way): the refusal comes
// before the events that moved the table on, as it may on a socket. The
// bot counts a race, not an error, and does not send the same decline
// again: its next command answers the next turn the table shows. A
// refusal that is no race (a stake refused) is an error.
func TestBotTakesAClosedWindowCalmly(t *testing.T) {
	for _, c := range []struct {
		name          string
		reason        string
		errors, races int
		next          string // the bot's next command's op
	}{
		{"window closed", "no_window", 0, 1, wire.OpAct},
		{"turn moved on", "out_of_turn", 0, 1, wire.OpAct},
		{"a refusal", "stake_refused", 1, 0, wire.OpDecline},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			next := make(chan string, 1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Upgrade") == "" { // the bot's leave at its end
					json.NewEncoder(w).Encode(wire.CommandResult{OK: true})
					return
				}
				conn, err := websocket.Accept(w, r, nil)
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.CloseNow()
				send := func(m wire.Message) {
					b, _ := json.Marshal(m)
					if err := conn.Write(ctx, websocket.MessageText, b); err != nil && ctx.Err() == nil {
						t.Error(err)
					}
				}
				read := func() wire.CommandRequest {
					for {
						_, b, err := conn.Read(ctx)
						if err != nil {
							return wire.CommandRequest{}
						}
						var req wire.CommandRequest
						json.Unmarshal(b, &req)
						if req.Op != wire.OpPing {
							return req
						}
						send(wire.Message{Type: wire.MsgPong, CommandID: req.CommandID})
					}
				}
				window := &wire.TurnView{Round: 3, Phase: "insurance", Players: []string{"bot"},
					Legal: []wire.Action{{Kind: "insure", Player: "bot", Box: 1}}}
				send(wire.Message{Type: wire.MsgSnapshot, Epoch: "e", Seq: 10, Table: &wire.TableView{
					Seats: []wire.SeatView{{Box: 1, Player: "bot"}}, Round: &wire.RoundView{No: 3, Phase: "insurance"}, Turn: window}})
				decline := read()
				if decline.Op != wire.OpDecline || decline.Box != 1 {
					t.Errorf("the bot's answer to the window: %+v", decline)
				}
				send(wire.Message{Type: wire.MsgError, CommandID: decline.CommandID, Code: sabot.ECONFLICT,
					Error: "refused", Reason: c.reason})
				// The window's end: another's decline by the timer, then the
				// bot's turn to play its hand.
				send(wire.Message{Type: wire.MsgEvent, Seq: 11, Event: &wire.Event{Kind: wire.EvDecline, Player: "ann", Box: 2, By: "timeout"}})
				send(wire.Message{Type: wire.MsgEvent, Seq: 12, Event: &wire.Event{Kind: wire.EvTurn, Turn: &wire.TurnView{Round: 3, Phase: "playing",
					Box: 1, Players: []string{"bot"}, Cards: []string{"TS", "7H"}, Dealer: []string{"AS"},
					Legal: []wire.Action{{Kind: "hit", Player: "bot", Box: 1}, {Kind: "stand", Player: "bot", Box: 1}}}}})
				req := read()
				next <- req.Op
				send(wire.Message{Type: wire.MsgResult, CommandID: req.CommandID})
				<-ctx.Done()
			}))
			defer srv.Close()
			b := &client.Bot{Client: &client.Client{URL: srv.URL}, Name: "bot", Table: 1, Box: 1, Stake: 100}
			done := make(chan struct{})
			go func() { b.Run(ctx); close(done) }()
			if got := <-next; got != c.next {
				t.Errorf("the bot's next command: %q, want %q", got, c.next)
			}
			cancel()
			<-done
			if s := b.Stats(); s.Errors != c.errors || s.Races != c.races {
				t.Errorf("refused %s: %d errors (%q), %d races; want %d, %d", c.reason, s.Errors, s.LastError, s.Races, c.errors, c.races)
			}
		})
	}
}

// Raced tells a refusal for a table that went on from one that is not.
func TestRaced(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{sabot.Errorf(sabot.ECONFLICT, "refused: no optional window is open").WithReason("no_window", nil), true},
		{sabot.Errorf(sabot.ECONFLICT, "refused: out of turn").WithReason("out_of_turn", nil), true},
		{sabot.Errorf(sabot.ECONFLICT, "refused: dealt").WithReason("deal_dealt", nil), true},
		{sabot.Errorf(sabot.ECONFLICT, "refused: stake").WithReason("stake_refused", nil), false},
		{sabot.Errorf(sabot.EINVALID, "refused").WithReason("out_of_turn", nil), false},
		{sabot.Errorf(sabot.ECONFLICT, "no reason"), false},
		{nil, false},
	} {
		if got := client.Raced(c.err); got != c.want {
			t.Errorf("Raced(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
