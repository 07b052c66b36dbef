package server_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/client"
	"sabot/internal/server"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// Clients never wait on a node that cannot serve them:
// the server pings its sockets and drops those whose client is gone; the Go
// client pings the server, leaves a node that does not answer for the next
// one, and the bots send again the command that the lost socket took with
// it.

// freezer is a TCP proxy in front of a server that can be frozen as a
// stopped process is: connections are still accepted and bytes still
// taken, but nothing goes through any more, either way.
type freezer struct {
	t      *testing.T
	ln     net.Listener
	to     string
	mu     sync.Mutex
	frozen chan struct{} // closed: frozen
	conns  []net.Conn
	after  string // newFreezerAfter
}

func newFreezer(t *testing.T, to string) *freezer { return newFreezerAfter(t, to, "") }

// newFreezerAfter is a freezer that freezes once it has passed on to a
// client a chunk that holds after.
func newFreezerAfter(t *testing.T, to, after string) *freezer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{t: t, ln: ln, to: strings.TrimPrefix(to, "http://"), frozen: make(chan struct{}), after: after}
	t.Cleanup(f.cut)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(c)
		}
	}()
	return f
}

// cut closes every connection through the proxy, and the proxy.
func (f *freezer) cut() {
	f.ln.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.conns {
		c.Close()
	}
}

func (f *freezer) URL() string { return "http://" + f.ln.Addr().String() }

func (f *freezer) freeze() {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.frozen:
	default:
		close(f.frozen)
	}
}

func (f *freezer) isFrozen() bool {
	select {
	case <-f.frozen:
		return true
	default:
		return false
	}
}

func (f *freezer) serve(c net.Conn) {
	up, err := net.Dial("tcp", f.to)
	if err != nil {
		c.Close()
		return
	}
	f.mu.Lock()
	f.conns = append(f.conns, c, up)
	f.mu.Unlock()
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if f.isFrozen() {
				// Taken, never passed on: the other end waits for ever.
				io.Copy(io.Discard, src)
				return
			}
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
				if f.after != "" && dst == c && strings.Contains(string(buf[:n]), f.after) {
					f.freeze()
				}
			}
			if err != nil {
				dst.Close()
				return
			}
		}
	}
	go pipe(up, c)
	go pipe(c, up)
}

// A socket whose client no longer answers is closed by the server's pings:
// before, it stayed open (its queue, its goroutines, its user's share of
// sockets) for as long as the TCP connection did.
func TestServerDropsSilentSocket(t *testing.T) {
	t.Parallel()
	h := &harness{t: t, st: openStore(t, t.TempDir()+"/sabot.db"), set: func(s *server.Server) { s.SocketPing = time.Second }}
	h.start(slow)
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 1000)
	// The context outlives every wait below (10 s, 10 s and the 5-s
	// pause): with 10 s for all of them, a slow first wait ended the
	// reading client's context during the pause, and its socket with it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u := strings.Replace(h.srv.URL(), "http", "ws", 1) + "/api/tables/" + itoa(tb) + "/ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + ana.Token}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	// The client reads nothing: it answers no ping.
	within(t, 10*time.Second, "the server closes the socket whose client does not answer", func() bool {
		return metricOf(t, h.srv.URL(), "sabot_websockets") == 0 && metricOf(t, h.srv.URL(), "sabot_websocket_unanswered_total") == 1
	})
	// A client that reads (and so answers the pings) keeps its socket.
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	go func() {
		for {
			if _, err := f.Next(ctx); err != nil {
				return
			}
		}
	}()
	within(t, 10*time.Second, "the reading client's socket open", func() bool {
		return metricOf(t, h.srv.URL(), "sabot_websockets") == 1
	})
	// A second's ping gives a client a second to answer: on two busy
	// cores a tenth of one was too short for a client that does read.
	testwait.Pause(5 * time.Second) // five pings: the time passing is what is tested
	if n := metricOf(t, h.srv.URL(), "sabot_websockets"); n != 1 {
		t.Fatalf("%v sockets open: the client answering pings lost its socket", n)
	}
	if n := metricOf(t, h.srv.URL(), "sabot_websocket_unanswered_total"); n != 1 {
		t.Fatalf("%v sockets closed unanswered: the client answering pings was taken for silent", n)
	}
}

// A table's socket to a node that stops answering (SIGSTOP: its kernel
// still takes the bytes) ends within the client's keepalive, and the
// client moves to its next node; before, Next waited for as long as the
// node was stopped.
func TestFeedLeavesStoppedNode(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	tb := h.table("vegas-s17", true, nil)
	h.player("ana", 1000)
	fz := newFreezer(t, h.srv.URL())
	ana := &client.Client{URL: fz.URL() + "," + h.srv.URL(), Keepalive: 200 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	must(ana.Login(ctx, "ana", password))
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	first := must(f.Next(ctx))
	if first.Type != "snapshot" {
		t.Fatalf("first message: %+v", first)
	}
	fz.freeze()
	for {
		_, err := f.Next(ctx)
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			t.Fatalf("the socket to the stopped node did not end: %v", err)
		}
		t.Logf("the socket ended: %v", err)
		break
	}
	// The next socket goes to the other node.
	g := must(ana.Subscribe(ctx, tb, first.Epoch, first.Seq))
	defer g.Close()
	if _, err := g.Send(ctx, wire.CommandRequest{Op: "ping", CommandID: "p-1"}); err != nil {
		t.Fatal(err)
	}
	for {
		m := must(g.Next(ctx))
		if m.Type == "pong" && m.CommandID == "p-1" {
			break
		}
	}
}

// A plain call to a node that stops (the connection taken, nothing
// answered) ends at the client's CallTimeout instead of waiting as long as
// the node is stopped, and the client's next call goes to its next node.
// Before, Do had no bound of its own: a bot's login or a Me hung for the
// whole pause.
func TestCallLeavesStoppedNode(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	h.player("ana", 1000)
	fz := newFreezer(t, h.srv.URL())
	ana := &client.Client{URL: fz.URL() + "," + h.srv.URL(), CallTimeout: 300 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	must(ana.Login(ctx, "ana", password))
	fz.freeze()
	_, err := ana.Me(ctx)
	if err == nil || ctx.Err() != nil {
		t.Fatalf("a call to the stopped node: %v (the test's own deadline: %v)", err, ctx.Err())
	}
	me := must(ana.Me(ctx)) // the next node
	if me.Name != "ana" {
		t.Fatalf("me on the next node: %+v", me)
	}
}

// A bot's decision sent into a node that stops (here, the connection to
// it freezes as the bot decides) is lost with the socket: the bot leaves
// the node when its pings go unanswered, resumes at the other node with
// the events it missed, and sends the decision again under the same
// command ID. Before, it waited for a turn it had already answered, and
// the decision timer stood the hand.
func TestBotResendsLostDecision(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, actor.Timing{BetWindow: 100 * time.Millisecond, Decision: 20 * time.Second, Window: 20 * time.Second})
	tb := h.table("vegas-s17", false, nil)
	h.player("ana", 100000)
	// Once the bot has been told of its first turn, the node it is
	// connected to freezes: the decision it sends goes nowhere.
	fz := newFreezerAfter(t, h.srv.URL(), `"kind":"turn"`)
	c := &client.Client{URL: fz.URL() + "," + h.srv.URL(), Keepalive: 300 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	must(c.Login(ctx, "ana", password))
	watch := must(h.admin.Subscribe(ctx, tb, "", 0))
	defer watch.Close()
	bot := &client.Bot{Client: c, Name: "ana", Table: tb, Box: 1, Stake: 100, Think: 500 * time.Millisecond}
	bctx, bcancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		bot.Run(bctx)
	}()
	defer func() {
		bcancel()
		<-done
	}()
	// No decision is left to the timer, and the bot goes on playing at
	// the other node.
	decided := 0
	for settled := 0; settled < 2; {
		m, err := watch.Next(ctx)
		if err != nil {
			t.Fatalf("%v (frozen: %v)", err, fz.isFrozen())
		}
		if m.Type != "event" {
			continue
		}
		switch e := m.Event; {
		case e.Kind == "action" && e.By == "timeout":
			t.Fatalf("the bot's decision was applied by the timer: %+v", e.Action)
		case (e.Kind == "action" || e.Kind == "decline") && e.By != "dealer" && fz.isFrozen():
			decided++
		case e.Kind == "settle" && fz.isFrozen() && decided > 0:
			settled++
		}
	}
	if s := bot.Stats(); s.Errors != 0 {
		t.Fatalf("the bot's errors: %+v", s)
	}
}

// metricOf reads one value from a server's /metrics.
func metricOf(t *testing.T, url, name string) float64 {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return metricValue(string(b), name)
}

// A socket forwarded to a table's node is cut by the forwarding node once
// the leases say that node no longer owns the table (its lease expired: it
// stopped, or was cut off from the database), and the client reconnects
// to the table's new node. Before, the socket stayed on the old node,
// which answered nothing for the table, for as long as it was stopped.
func TestForwardedSocketCutWhenOwnerLost(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	tb := c.tables(1)[0]
	if c.owner(tb) != a {
		t.Fatal("the table is not its creator's")
	}
	ana := c.player("ana", b)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	f := must(ana.Subscribe(ctx, tb, "", 0)) // through b, to a
	defer f.Close()
	first := must(f.Next(ctx))
	// a stops renewing its lease (and still answers: its socket is alive,
	// pings included).
	server.PauseNode(a, true)
	defer server.PauseNode(a, false)
	for {
		if _, err := f.Next(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatalf("the socket forwarded to the node that lost the table was not cut: %v", err)
			}
			break
		}
	}
	g := must(ana.Subscribe(ctx, tb, first.Epoch, first.Seq))
	defer g.Close()
	m := must(g.Next(ctx))
	if m.Type != "snapshot" || m.Epoch == first.Epoch {
		t.Fatalf("after the cut: %+v, not a snapshot of the table's new node", m)
	}
	if !server.Serves(b, tb) {
		t.Fatal("b does not serve the table")
	}
}

// The web page's heartbeat is answered at once, and is no use of the
// session: a page left open does not keep its player logged in.
func TestPingIsNoUse(t *testing.T) {
	t.Parallel()
	var offset atomic.Int64
	h := &harness{t: t, st: openStore(t, t.TempDir()+"/sabot.db"), set: func(s *server.Server) {
		s.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	}}
	h.start(actor.Timing{BetWindow: time.Hour, Decision: time.Hour, Window: time.Hour, SessionIdle: time.Minute, SeatIdle: time.Hour})
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 1000)
	ana.Keepalive = -1
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	f := must(ana.Subscribe(ctx, tb, "", 0))
	defer f.Close()
	ping := func(id string) *wire.Message {
		if _, err := f.Send(ctx, wire.CommandRequest{Op: "ping", CommandID: id}); err != nil {
			return nil
		}
		for {
			m, err := f.Next(ctx)
			if err != nil {
				return nil
			}
			if m.Type != "snapshot" {
				return m
			}
		}
	}
	// Pings 20 s apart for 65 s, the session's idle time a minute.
	for i, step := range []time.Duration{0, 20 * time.Second, 20 * time.Second} {
		offset.Add(int64(step))
		if m := ping("p-" + itoa(int64(i))); m == nil || m.Type != "pong" || m.CommandID != "p-"+itoa(int64(i)) {
			t.Fatalf("the answer to ping %d: %+v", i, m)
		}
	}
	offset.Add(int64(25 * time.Second))
	if m := ping("p-last"); m != nil && m.Type == "pong" {
		t.Fatalf("a ping answered 65 s after the session's last use: %+v", m)
	}
	if _, err := ana.Me(ctx); err == nil {
		t.Fatal("the session outlived its idle time, kept by pings")
	}
}

// A node cut off from its database (its connections to PostgreSQL freeze:
// a partition) answers every API request at once, 503 with Retry-After,
// and fails its readiness, while its liveness still answers; the other
// node takes its tables over. Before, every request for every table hung
// on the database (forwarding reads the leases) and /readyz waited 5 s.
func TestNodeCutOffFromDatabase(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 1)
	a := c.nodes[0]
	u, err := url.Parse(c.dsn)
	if err != nil {
		t.Fatal(err)
	}
	fz := newFreezer(t, u.Host)
	u.Host = fz.ln.Addr().String()
	b := c.addAt(u.String())
	t.Cleanup(fz.cut) // before b closes: its store's connections fail at once
	tbs := c.tables(4)
	within(t, 10*time.Second, "the tables shared out", func() bool { return server.Local(a) == 2 && server.Local(b) == 2 })
	ana := c.player("ana", b)
	hc := &http.Client{Timeout: 5 * time.Second}
	get := func(path string, auth bool) (*http.Response, error) {
		req, _ := http.NewRequest("GET", b.URL()+path, nil)
		if auth {
			req.Header.Set("Authorization", "Bearer "+ana.Token)
		}
		resp, err := hc.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	fz.freeze()
	cut := time.Now()
	// Every request, from the cut on, is answered within the client's 5 s:
	// first as the database does not answer, then refused at once.
	var refused *http.Response
	for refused == nil {
		for _, id := range tbs {
			resp, err := get("/api/tables/"+itoa(id), false)
			if err != nil {
				t.Fatalf("%v after the cut, table %d: %v", time.Since(cut).Round(time.Millisecond), id, err)
			}
			if resp.StatusCode == http.StatusServiceUnavailable {
				refused = resp
			}
		}
		if time.Since(cut) > 15*time.Second {
			t.Fatal("the node cut off from the database never refused a request")
		}
	}
	if ra := refused.Header.Get("Retry-After"); ra == "" {
		t.Fatalf("a 503 without Retry-After: %v", refused.Header)
	}
	t.Logf("the node refused requests %v after its database was cut", time.Since(cut).Round(time.Millisecond))
	for _, path := range []string{"/api/me", "/api/tables", "/api/tables/" + itoa(tbs[0]) + "/history"} {
		start := time.Now()
		resp, err := get(path, true)
		if err != nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: %v %v", path, resp, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: refused after %v, not at once", path, d)
		}
	}
	if resp, err := get("/readyz", false); err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("/readyz of the node cut off: %v %v", resp, err)
	}
	if resp, err := get("/healthz", false); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz of the node cut off: %v %v", resp, err)
	}
	// The other node serves every table.
	within(t, 15*time.Second, "node a serves every table", func() bool { return server.Local(a) == 4 })
	viaA := &client.Client{URL: a.URL(), Token: ana.Token}
	for _, id := range tbs {
		must(viaA.Table(context.Background(), id))
	}
}

// The failed-login throttles count across the nodes:
// guesses spread over two nodes meet the bucket of one. Before, each node
// counted its own, and two nodes gave twice the guesses.
func TestLoginThrottleAcrossNodes(t *testing.T) {
	t.Parallel()
	c := newClusterWith(t, 2, func(s *server.Server) {
		s.LoginNameBurst, s.LoginNameEvery = 3, time.Hour
		s.LoginAddrBurst, s.LoginNameAllBurst = -1, -1
	})
	a, b := c.nodes[0], c.nodes[1]
	c.player("ana", a)
	ctx := context.Background()
	at := []*client.Client{{URL: a.URL()}, {URL: b.URL()}}
	for i := range 3 { // a, b, a: three guesses, the bucket's burst
		_, err := at[i%2].Login(ctx, "ana", "wrong-password")
		wantCode(t, err, "unauthorized", "wrong password")
	}
	for i, n := range at { // the fourth, at either node, is throttled
		_, err := n.Login(ctx, "ana", "wrong-password")
		wantCode(t, err, "too_many_requests", "too many failed logins")
		if _, err := n.Login(ctx, "ana", password); sabot.ErrorCode(err) != sabot.ETHROTTLED {
			t.Errorf("node %d: the right password during the throttle: %v", i, err)
		}
	}
}
