package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sabot/internal/actor"
	"sabot/internal/wire"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"sabot"
)

// handleWS serves a table's WebSocket: a snapshot (or the events missed
// since the client's last sequence number), then every event of the table
// as it happens; commands sent on the socket are answered on it, after the
// events they caused. See docs/protocol.md. A user holds at most
// MaxSockets at once; a socket takes at most SocketRate messages a second
// and closes when its session is over (sockets.go).
func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	// The token may come as ?token= here only (a browser's WebSocket
	// sends no header; in other URLs it would end in logs and histories).
	u, token, err := s.authenticate(r, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.tableOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	k, err := s.openSocket(u, token)
	if err != nil {
		w.Header().Set("Retry-After", "5")
		s.writeError(w, r, err)
		return
	}
	defer s.closeSocket(k)
	since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64)
	// The server's read and write timeouts bound a request and its answer;
	// a WebSocket lasts as long as the player plays.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	cw := &corkingWriter{ResponseWriter: w, writes: &s.socketWrites}
	conn, err := websocket.Accept(cw, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 16)
	s.metrics.sockets.Inc()
	defer s.metrics.sockets.Dec()

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	sub := actor.NewSubscriber(1024)
	if err := a.Subscribe(ctx, sub, since, r.URL.Query().Get("epoch")); err != nil {
		conn.Close(websocket.StatusTryAgainLater, sabot.ErrorMessage(err))
		return
	}
	defer func() {
		a.Unsubscribe(ctx, sub) // the actor may be gone (shutdown): it does not wait for it
	}()

	// A client that no longer answers (its machine gone, its network
	// cut: nothing closes the connection) is pinged and dropped: a ping
	// not answered by the next one closes the socket.
	// A client heard from within the interval is not pinged.
	var heard atomic.Int64 // when the client last sent a message (Unix ns)
	heard.Store(time.Now().UnixNano())
	if every := durationOr(s.SocketPing, DefaultSocketPing); every > 0 {
		go func() {
			tick := time.NewTicker(every)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				if time.Since(time.Unix(0, heard.Load())) < every {
					continue
				}
				pctx, pcancel := context.WithTimeout(ctx, every)
				err := conn.Ping(pctx)
				pcancel()
				if err != nil {
					if ctx.Err() == nil {
						s.metrics.socketsUnanswered.Inc()
						s.logger().Info("a WebSocket's client did not answer a ping: closed", "table", a.ID(), "user", k.user.Name)
					}
					conn.CloseNow()
					cancel()
					return
				}
			}
		}()
	}

	results := make(chan wsAnswer, 16)
	go func() {
		for {
			_, data, err := conn.Read(ctx)
			if err != nil {
				cancel()
				return
			}
			heard.Store(time.Now().UnixNano())
			res := s.wsMessage(ctx, k, a, data)
			select {
			case results <- res:
			case <-ctx.Done():
				return
			}
			if res.closing != "" {
				return // the writer answers, then closes
			}
		}
	}()

	// Every message ready is written, then sent in one go: the events of
	// a decision (the action, its card, whose turn) usually leave in one
	// write to the socket, not one each. The writes' context has no end
	// (the library would arm and disarm a timer around every frame): a
	// write still blocked on a client that does not read when ctx ends
	// (shutdown, or the reader gone) fails 5 seconds later, at the latest.
	wctx := context.WithoutCancel(ctx)
	defer context.AfterFunc(ctx, func() { cw.setWriteDeadline(time.Now().Add(5 * time.Second)) })()
	tooSlow := func() {
		cw.uncork()
		conn.Close(websocket.StatusPolicyViolation, "too slow: reconnect with since and epoch to resync")
	}
	// A batch is the events one command or timer of the table caused:
	// its frames are gathered (corked) and leave in one write.
	writeBatch := func(batch [][]byte) error {
		sub.Taken(batch)
		for _, data := range batch {
			if err := conn.Write(wctx, websocket.MessageText, data); err != nil {
				return err
			}
		}
		return nil
	}
	idle := time.NewTimer(s.idleCheck(k))
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		case <-k.revoked:
			cw.uncork()
			conn.Close(websocket.StatusPolicyViolation, "the session is over: log in again")
			return
		case <-idle.C:
			// Nothing used the session from here for a while: is it over?
			if !s.sessionLive(ctx, k, false) {
				continue // revoked: the next turn closes
			}
			idle.Reset(s.idleCheck(k))
			continue
		case batch, ok := <-sub.C():
			if !ok {
				tooSlow()
				return
			}
			cw.cork()
			if writeBatch(batch) != nil {
				return
			}
		case res := <-results:
			cw.cork()
			// The events a command caused come before its answer.
			for drained := false; !drained; {
				select {
				case batch, ok := <-sub.C():
					if !ok {
						tooSlow()
						return
					}
					if writeBatch(batch) != nil {
						return
					}
				default:
					drained = true
				}
			}
			if conn.Write(wctx, websocket.MessageText, res.data) != nil {
				return
			}
			if res.closing != "" {
				cw.uncork()
				conn.Close(websocket.StatusPolicyViolation, res.closing)
				return
			}
		}
		// What else is ready goes in the same write.
		for more := true; more && cw.corked() < maxCorked; {
			select {
			case batch, ok := <-sub.C():
				if !ok {
					tooSlow()
					return
				}
				if writeBatch(batch) != nil {
					return
				}
			default:
				more = false
			}
		}
		if cw.uncork() != nil {
			return
		}
	}
}

// maxCorked bounds the bytes a socket's writer gathers before it sends them.
const maxCorked = 64 << 10

// corkingWriter lets the WebSocket's writer gather several messages into
// one write to the connection. The WebSocket library writes each message
// (frame) through a bufio.Writer that it flushes at the end of the message;
// Hijack gives it one whose flushes land here, where, between cork and
// uncork, they are kept and then written at once. Anything written while not
// corked (a pong, a close frame written by the reader) goes straight
// through.
type corkingWriter struct {
	http.ResponseWriter

	raw  net.Conn // the hijacked connection, set once
	mu   sync.Mutex
	conn net.Conn // raw, if the writes come here (else nil: no corking)
	on   bool
	buf  []byte
	// writes, if set, counts the writes to conn.
	writes *atomic.Int64
}

func (c *corkingWriter) wrote() {
	if c.writes != nil {
		c.writes.Add(1)
	}
}

// setWriteDeadline sets the connection's write deadline. It does not take
// mu, which a write blocked on the client holds: it is what ends that
// write. (raw is set by the hijack, before anything can call it.)
func (c *corkingWriter) setWriteDeadline(t time.Time) {
	if c.raw != nil {
		c.raw.SetWriteDeadline(t)
	}
}

func (c *corkingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := c.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("the response cannot be hijacked")
	}
	conn, brw, err := h.Hijack()
	if err != nil {
		return nil, nil, err
	}
	c.raw = conn
	c.mu.Lock()
	defer c.mu.Unlock()
	if brw.Writer.Buffered() > 0 {
		// Not expected (net/http flushes the 101 before it gives the
		// connection up): write through, uncorked, the library's writer.
		return conn, brw, nil
	}
	c.conn = conn
	return conn, bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(c, brw.Writer.Size())), nil
}

func (c *corkingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil { // before the hijack: the HTTP response
		return c.ResponseWriter.Write(p)
	}
	if c.on {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	c.wrote()
	return c.conn.Write(p)
}

func (c *corkingWriter) cork() {
	c.mu.Lock()
	c.on = true
	c.mu.Unlock()
}

func (c *corkingWriter) corked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.buf)
}

// uncork writes what was gathered.
func (c *corkingWriter) uncork() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = false
	if len(c.buf) == 0 || c.conn == nil {
		return nil
	}
	c.wrote()
	_, err := c.conn.Write(c.buf)
	if cap(c.buf) > maxCorked {
		c.buf = nil
	} else {
		c.buf = c.buf[:0]
	}
	return err
}

// wsAnswer is the answer to a message on a socket; closing, if set, is
// why the socket closes after it.
type wsAnswer struct {
	data    []byte
	closing string
}

// wsMessage answers one message received on a socket, once the socket's
// rate allows it: refused when the socket's session is over (and the
// socket closes), else run.
func (s *Server) wsMessage(ctx context.Context, k *socket, a *actor.Table, data []byte) wsAnswer {
	refuse := func(err error, closing string) wsAnswer {
		var req struct {
			CommandID string `json:"command_id"`
		}
		json.Unmarshal(data, &req)
		s.metrics.errors.WithLabelValues(sabot.ErrorCode(err)).Inc()
		b, _ := json.Marshal(actor.ErrorMessage(req.CommandID, err))
		return wsAnswer{data: b, closing: closing}
	}
	// A heartbeat is no use of the session: a page left open does not keep
	// its player logged in.
	ping := false
	if bytes.Contains(data, []byte(`"`+wire.OpPing+`"`)) {
		var op struct {
			Op string `json:"op"`
		}
		json.Unmarshal(data, &op)
		ping = op.Op == wire.OpPing
	}
	if err := s.pace(ctx, k); err != nil || !s.sessionLive(ctx, k, !ping) {
		return refuse(errSessionOver, "the session is over: log in again")
	}
	return wsAnswer{data: s.wsSessionCommand(ctx, a, k.user, k.token, data)}
}

// wsCommand runs one command sent on a socket and returns its answer.
func (s *Server) wsCommand(ctx context.Context, a *actor.Table, u *sabot.User, data []byte) []byte {
	return s.wsSessionCommand(ctx, a, u, "", data)
}

// wsSessionCommand is wsCommand from a session: its stakes are refused once
// the session is over (StakeGuard).
func (s *Server) wsSessionCommand(ctx context.Context, a *actor.Table, u *sabot.User, session string, data []byte) []byte {
	answer := func(m wire.Message) []byte {
		b, _ := json.Marshal(m)
		return b
	}
	req, c, err := s.decodeWS(u, a, data)
	fail := func(err error) []byte {
		if errors.Is(err, context.Canceled) {
			err = sabot.Errorf(sabot.ECONFLICT, "the command was cancelled: the socket is closing")
		}
		code := sabot.ErrorCode(err)
		if code == sabot.EINTERNAL {
			// The player reads "internal error"; the operator, the cause.
			s.logger().Error("internal error on a WebSocket command", "table", a.ID(), "user", u.Name,
				"op", req.Op, "command_id", req.CommandID, "client_id", req.ClientID, "err", err)
		}
		s.metrics.errors.WithLabelValues(code).Inc()
		return answer(actor.ErrorMessage(req.CommandID, err))
	}
	if err != nil {
		return fail(err)
	}
	if req.Op == wire.OpPing { // the client's heartbeat: this node answers
		return answer(wire.Message{Type: wire.MsgPong, CommandID: req.CommandID})
	}
	if c == nil { // a snapshot
		view, epoch, seq, err := a.Snapshot(ctx)
		if err != nil {
			return fail(err)
		}
		return answer(wire.Message{Type: wire.MsgSnapshot, CommandID: req.CommandID, Epoch: epoch, Seq: seq, Table: view})
	}
	c.SetSession(session)
	rep := a.Do(ctx, c)
	if rep.Err != nil {
		return fail(rep.Err)
	}
	return answer(wire.Message{Type: wire.MsgResult, CommandID: req.CommandID, LogSeq: rep.Seq, Duplicate: rep.Dup})
}

// decodeWS reads a message received on a socket: a request for the
// table's snapshot (c nil), or a command of actor.Ops() for its table;
// anything else is refused with a one-line reason (invalid; forbidden: an
// administrator's command from a player, citing the rule of the table at,
// nil: none). The JSON is read as strictly as
// an HTTP body (decodeJSON): fields spelled exactly, each once, nothing
// after the object. req is what
// could be read of the message (its command ID goes with the refusal).
func (s *Server) decodeWS(u *sabot.User, at *actor.Table, data []byte) (req wire.Envelope, c *actor.Command, err error) {
	req, body, err := wire.DecodeCommand(data)
	if err != nil {
		return req, nil, err
	}
	if req.Op == wire.OpSnapshot || req.Op == wire.OpPing { // no table command: nothing but the envelope
		_, err := wire.DecodeRequest[struct{}](req.Op, body)
		return req, nil, err
	}
	cmd := actor.OpNamed(req.Op)
	switch {
	case req.Op == "":
		return req, nil, sabot.Errorf(sabot.EINVALID, "a command needs an op: %s or %s", actor.PlayerOpNames(), wire.OpSnapshot)
	case cmd == nil:
		return req, nil, sabot.Errorf(sabot.EINVALID, "unknown op %s", wire.Brief(strconv.Quote(req.Op)))
	}
	if !cmd.ForPlayers() { // a player's is checked with its body (walk_in)
		if err := cmd.Allows(u, at); err != nil {
			return req, nil, err
		}
	}
	c, err = s.host.Command(u, cmd, req, body)
	if err != nil {
		return req, nil, sabot.Errorf(sabot.ErrorCode(err), "%s", wire.Brief(sabot.ErrorMessage(err)))
	}
	return req, c, nil
}
