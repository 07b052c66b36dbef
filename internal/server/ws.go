package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/coder/websocket"

	"sabot"
)

// handleWS serves a table's WebSocket: a snapshot (or the events missed
// since the client's last sequence number), then every event of the table
// as it happens; commands sent on the socket are answered on it, after the
// events they caused. See docs/protocol.md.
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	a, err := s.tableOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64)
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 16)
	s.metrics.sockets.Inc()
	defer s.metrics.sockets.Dec()

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	sub := &subscriber{ch: make(chan []byte, 1024)}
	if rep := a.do(ctx, &command{op: opSubscribe, sub: sub, since: since, epoch: r.URL.Query().Get("epoch")}); rep.err != nil {
		conn.Close(websocket.StatusTryAgainLater, sabot.ErrorMessage(rep.err))
		return
	}
	defer func() {
		// The actor may be gone (shutdown): do not wait for it.
		uctx, ucancel := context.WithCancel(context.Background())
		ucancel()
		a.do(uctx, &command{op: opUnsubscribe, sub: sub})
		go a.do(context.WithoutCancel(ctx), &command{op: opUnsubscribe, sub: sub})
	}()

	results := make(chan []byte, 16)
	go func() {
		defer cancel()
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				return
			}
			msg := s.wsCommand(ctx, a, u, data)
			select {
			case results <- msg:
			case <-ctx.Done():
				return
			}
		}
	}()

	for {
		select {
		case <-ctx.Done():
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		case data, ok := <-sub.ch:
			if !ok {
				conn.Close(websocket.StatusPolicyViolation, "too slow: reconnect with since and epoch to resync")
				return
			}
			if conn.Write(ctx, websocket.MessageText, data) != nil {
				return
			}
		case res := <-results:
			// The events a command caused come before its answer.
			for drained := false; !drained; {
				select {
				case data, ok := <-sub.ch:
					if !ok {
						conn.Close(websocket.StatusPolicyViolation, "too slow: reconnect with since and epoch to resync")
						return
					}
					if conn.Write(ctx, websocket.MessageText, data) != nil {
						return
					}
				default:
					drained = true
				}
			}
			if conn.Write(ctx, websocket.MessageText, res) != nil {
				return
			}
		}
	}
}

// wsCommand runs one command sent on a socket and returns its answer.
func (s *Server) wsCommand(ctx context.Context, a *actor, u *sabot.User, data []byte) []byte {
	var req CommandRequest
	answer := func(m Message) []byte {
		b, _ := json.Marshal(m)
		return b
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return answer(Message{Type: "error", Code: sabot.EINVALID, Error: "bad JSON command: " + err.Error()})
	}
	fail := func(err error) []byte {
		s.metrics.errors.WithLabelValues(sabot.ErrorCode(err)).Inc()
		return answer(Message{Type: "error", CommandID: req.CommandID, Code: sabot.ErrorCode(err), Error: sabot.ErrorMessage(err)})
	}
	switch req.Op {
	case opSit, opLeave, opBet, opWithdraw, opAct, opDecline:
	case opForce, opNewShoe, opVoid:
		if !u.Admin {
			return fail(sabot.Errorf(sabot.EFORBIDDEN, "administrators only"))
		}
	case "snapshot":
		rep := a.do(ctx, &command{op: opView})
		return answer(Message{Type: "snapshot", CommandID: req.CommandID, Table: rep.view})
	default:
		return fail(sabot.Errorf(sabot.EINVALID, "unknown op %q", req.Op))
	}
	c, err := s.command(u, req.Op, req)
	if err != nil {
		return fail(err)
	}
	rep := a.do(ctx, c)
	if rep.err != nil {
		return fail(rep.err)
	}
	return answer(Message{Type: "result", CommandID: req.CommandID, LogSeq: rep.seq, Duplicate: rep.dup})
}
