package server_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/seal"
	"sabot/internal/server"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// Several nodes on one PostgreSQL database, in this process. The
// processes killed with SIGKILL and SIGSTOP are cmd/sabot's TestCluster.

// testLease is the nodes' lease in these tests: a node that stops renewing
// loses its tables within it.
const testLease = time.Second

type cluster struct {
	t     testing.TB
	dsn   string
	key   *seal.Key
	nodes []*server.Server
	admin *client.Client
	set   func(*server.Server) // sets each node's fields before it opens
}

func newCluster(t testing.TB, n int) *cluster {
	t.Helper()
	return newClusterWith(t, n, nil)
}

// newClusterWith starts n nodes, set setting each server's fields before
// it opens.
func newClusterWith(t testing.TB, n int, set func(*server.Server)) *cluster {
	t.Helper()
	b := make([]byte, seal.KeySize)
	rand.Read(b)
	key, err := seal.NewKey(b)
	if err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, dsn: storetest.PostgresDSN(t), key: key, set: set}
	for range n {
		c.add()
	}
	return c
}

// add starts one more node.
func (c *cluster) add() *server.Server {
	c.t.Helper()
	return c.addAt(c.dsn)
}

// addAt starts one more node, on the database at dsn (the cluster's, or a
// way to it).
func (c *cluster) addAt(dsn string) *server.Server {
	c.t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		c.t.Fatal(err)
	}
	srv := &server.Server{Store: st, Shared: true, Lease: testLease, SeedKey: c.key, TestMode: true, Timing: slow, BcryptCost: 4,
		RefusalBurst: -1}
	if c.set != nil {
		c.set(srv)
	}
	if err := srv.EnsureAdmin(context.Background(), "pit", password); err != nil {
		c.t.Fatal(err)
	}
	if err := srv.Open(); err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() {
		srv.Close()
		st.Close()
	})
	c.nodes = append(c.nodes, srv)
	if c.admin == nil {
		c.admin = &client.Client{URL: srv.URL()}
		if _, err := c.admin.Login(context.Background(), "pit", password); err != nil {
			c.t.Fatal(err)
		}
	}
	return srv
}

// player registers and credits a player, logged in at a node.
func (c *cluster) player(name string, at *server.Server) *client.Client {
	c.t.Helper()
	ctx := context.Background()
	p := &client.Client{URL: at.URL()}
	must(0, p.Register(ctx, name, password))
	must(0, c.admin.Credit(ctx, name, 10000))
	must(p.Login(ctx, name, password))
	return p
}

func (c *cluster) tables(n int) []int64 {
	c.t.Helper()
	var ids []int64
	for i := range n {
		v := must(c.admin.CreateTable(context.Background(), wire.TableRequest{Name: fmt.Sprint("t", i), Profile: "vegas-s17", TestMode: true}))
		ids = append(ids, v.ID)
	}
	return ids
}

// owner returns the node that serves a table.
func (c *cluster) owner(id int64) *server.Server {
	c.t.Helper()
	for _, n := range c.nodes {
		if server.Serves(n, id) {
			return n
		}
	}
	return nil
}

func within(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	testwait.Until(t, d, what, ok)
}

// epochsInOrder checks that a table's log went from one lease to the next
// and never back: no record was written under a lease that had moved on.
func epochsInOrder(t *testing.T, st sabot.Store, table int64) []*sabot.LogRecord {
	t.Helper()
	recs := must(st.Log(context.Background(), table, 1))
	for i, r := range recs {
		if i > 0 && r.Epoch < recs[i-1].Epoch {
			t.Fatalf("table %d: record %d (%s) under epoch %d after epoch %d", table, r.Seq, r.Kind, r.Epoch, recs[i-1].Epoch)
		}
	}
	return recs
}

// The tables are shared out as nodes join, every node lists every table,
// and a round is played on a table through a node that does not own it,
// over HTTP and its WebSocket.
func TestClusterShareAndForward(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 1)
	ids := c.tables(6)
	if n := server.Local(c.nodes[0]); n != 6 {
		t.Fatalf("the only node serves %d of 6 tables", n)
	}
	c.add()
	c.add()
	within(t, 10*time.Second, "two tables on each of three nodes", func() bool {
		for _, n := range c.nodes {
			if server.Local(n) != 2 {
				return false
			}
		}
		return true
	})
	for _, n := range c.nodes {
		var lobby []wire.TableView
		must(0, (&client.Client{URL: n.URL()}).Do(ctx, "GET", "/api/tables", nil, &lobby))
		if len(lobby) != 6 {
			t.Fatalf("node %s lists %d tables", n.URL(), len(lobby))
		}
		for i, v := range lobby {
			if v.ID != ids[i] {
				t.Fatalf("node %s lists table %d at %d", n.URL(), v.ID, i)
			}
		}
	}
	// A table of node 2, played through node 0.
	var tb int64
	for _, id := range ids {
		if c.owner(id) == c.nodes[2] {
			tb = id
		}
	}
	ana := c.player("ana", c.nodes[0])
	feed := must(ana.Subscribe(ctx, tb, "", 0))
	defer feed.Close()
	if m := must(feed.Next(ctx)); m.Type != "snapshot" || m.Table == nil || m.Table.ID != tb {
		t.Fatalf("the forwarded socket's first message: %+v", m)
	}
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(c.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 6D 7C TD 9C"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	waitRound(t, ana, tb, 1)
	deal := false
	for !deal {
		m := must(feed.Next(ctx))
		deal = m.Type == "event" && m.Event != nil && m.Event.Kind == "deal"
	}
	if w := wallet(t, ana); w != 10100 {
		t.Fatalf("ana's wallet after a win of 100: %d", w)
	}
	checkLedger(t, c.nodes[0].Store)
	// The rules, edge and strategy of a table are its owner's too.
	var rules map[string]any
	must(0, ana.Do(ctx, "GET", fmt.Sprintf("/api/tables/%d/rules", tb), nil, &rules))
	// No table: 404 from any node.
	_, err := ana.Table(ctx, 999)
	wantCode(t, err, sabot.ENOTFOUND, "no table 999")
}

// Two players ask for the same box through two nodes at once: exactly one
// gets it (deliverable 7).
func TestClusterOneBoxTwoNodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 3)
	ids := c.tables(3)
	within(t, 10*time.Second, "a table on each node", func() bool {
		for _, n := range c.nodes {
			if server.Local(n) != 1 {
				return false
			}
		}
		return true
	})
	ana, ben := c.player("ana", c.nodes[0]), c.player("ben", c.nodes[1])
	for _, tb := range ids {
		for box := 1; box <= 3; box++ {
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, p := range []*client.Client{ana, ben} {
				wg.Go(func() { _, errs[i] = p.Command(ctx, tb, "sit", wire.CommandRequest{Box: box}) })
			}
			wg.Wait()
			if (errs[0] == nil) == (errs[1] == nil) {
				t.Fatalf("table %d box %d: ana %v, ben %v", tb, box, errs[0], errs[1])
			}
			for _, err := range errs {
				if err != nil && sabot.ErrorCode(err) != sabot.ECONFLICT {
					t.Fatalf("the refused claim: %v", err)
				}
			}
		}
	}
}

// A node that stops renewing its lease (paused, as by SIGSTOP) loses its
// table to another; when it goes on, its append under the old epoch is
// refused by the store, it drops the table, and the log never goes back to
// its epoch. Its loss is a significant event (deliverable 1).
func TestClusterFencing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	tb := c.tables(1)[0]
	if c.owner(tb) != a {
		t.Fatal("the table is not its creator's")
	}
	ana := c.player("ana", b)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	server.PauseNode(a, true)
	within(t, 5*testLease, "node b takes the table over", func() bool { return server.Serves(b, tb) })
	if !server.Serves(a, tb) {
		t.Fatal("the paused node dropped its table before it wrote")
	}
	// Straight to the paused node, which still serves the table.
	viaA := &client.Client{URL: a.URL(), Token: ana.Token, Resends: -1} // the first answer
	_, err := viaA.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2})
	wantCode(t, err, sabot.EUNAVAILABLE, "moved to another node")
	within(t, 2*time.Second, "node a drops the table", func() bool { return !server.Serves(a, tb) })
	server.PauseNode(a, false)
	// Tried again, through the same node: forwarded to b.
	must(viaA.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	v := must(ana.Table(ctx, tb))
	if len(v.Seats) != 2 || v.Seats[0] != (wire.SeatView{Box: 1, Player: "ana"}) || v.Seats[1] != (wire.SeatView{Box: 2, Player: "ana"}) {
		t.Fatalf("seats after the takeover: %+v", v.Seats)
	}
	recs := epochsInOrder(t, b.Store, tb)
	if last := recs[len(recs)-1]; last.Epoch < 2 {
		t.Fatalf("the last record's epoch: %d", last.Epoch)
	}
	evs := must(b.Store.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAdmin}}))
	lost := 0
	for _, e := range evs {
		if bytes.Contains(e.Payload, []byte(`"node-lost"`)) && bytes.Contains(e.Payload, []byte("holding 1 tables")) {
			lost++
		}
	}
	if lost != 1 {
		t.Fatalf("%d node-lost events", lost)
	}
	// The paused node joined again, as a new node, and serves again.
	within(t, 5*testLease, "the node that lost its lease joins again", func() bool {
		var me map[string]any
		return (&client.Client{URL: a.URL()}).Do(ctx, "GET", "/healthz", nil, &me) == nil && !strings.Contains(fmt.Sprint(me), "false")
	})
}

// SIGTERM's drain: a node hands its tables over between rounds — a round
// in play finishes on it first — and nothing is voided (deliverable 4).
func TestClusterDrain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	ids := c.tables(2)
	within(t, 10*time.Second, "a table on each node", func() bool { return server.Local(a) == 1 && server.Local(b) == 1 })
	var tb int64
	for _, id := range ids {
		if server.Serves(a, id) {
			tb = id
		}
	}
	ana := c.player("ana", b)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(c.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 6D 7C TD 9C"}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	drained := make(chan error, 1)
	go func() {
		dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		drained <- a.Drain(dctx)
	}()
	testwait.Pause(3 * testLease) // three leases in which the table must not move
	if !server.Serves(a, tb) {
		t.Fatal("the table moved with its round in play")
	}
	// A draining node is not ready: a load balancer sends no new client
	// to it.
	var ready map[string]any
	wantCode(t, (&client.Client{URL: a.URL()}).Do(ctx, "GET", "/readyz", nil, &ready), sabot.EUNAVAILABLE, "handing its tables over")
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	if server.Local(a) != 0 {
		t.Fatalf("node a still serves %d tables", server.Local(a))
	}
	within(t, 5*time.Second, "node b serves both tables", func() bool { return server.Local(b) == 2 })
	waitRound(t, ana, tb, 1)
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
	for _, r := range epochsInOrder(t, b.Store, tb) {
		if r.Kind == sabot.LogVoid {
			t.Fatalf("a round was voided by the drain: %s", r.Payload)
		}
	}
	checkLedger(t, b.Store)
}

// BenchmarkForwarding measures a decision (a player's stand, its record
// and the round's settlement durable before the answer) and a table's view,
// sent over HTTP to the node that owns the table ("owner") and to another
// node that forwards it ("forwarded"), two nodes on PostgreSQL in this
// process (docs/server.md, "Several nodes"):
//
//	go test ./internal/server -run XXX -bench Forwarding -benchtime 2000x
func BenchmarkForwarding(b *testing.B) {
	ctx := context.Background()
	c := newCluster(b, 2)
	a, other := c.nodes[0], c.nodes[1]
	tb := c.tables(1)[0]
	if !server.Serves(a, tb) {
		b.Fatal("the table is not its creator's")
	}
	ana := c.player("ana", a)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	for _, via := range []struct {
		name string
		node *server.Server
	}{{"owner", a}, {"forwarded", other}} {
		p := &client.Client{URL: via.node.URL(), Token: ana.Token}
		b.Run("decision/"+via.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				b.StopTimer()
				must(c.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS 6D 7C TD 9C"}))
				must(p.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 100}))
				b.StartTimer()
				start := time.Now()
				must(p.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
				lat = append(lat, time.Since(start))
			}
			report(b, lat)
		})
		b.Run("view/"+via.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				must(p.Table(ctx, tb))
				lat = append(lat, time.Since(start))
			}
			report(b, lat)
		})
	}
}

// report adds a benchmark's latency percentiles to its figures.
func report(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1)+0.5)].Microseconds()) }
	b.ReportMetric(at(0.5), "µs-p50")
	b.ReportMetric(at(0.99), "µs-p99")
}

// A client given several nodes' URLs moves to the next when one does not
// answer; bots spread over them (Rotate).
func TestClientFailsOver(t *testing.T) {
	t.Parallel()
	h := newHarness(t, nil, slow)
	dead := "http://" + freeAddrServer(t)
	c := &client.Client{URL: dead + "," + h.srv.URL()}
	if _, err := c.Table(context.Background(), 1); err == nil || sabot.ErrorCode(err) != sabot.EINTERNAL {
		t.Fatalf("a node that does not answer: %v", err)
	}
	var vs []wire.TableView
	if err := c.Do(context.Background(), "GET", "/api/tables", nil, &vs); err != nil {
		t.Fatalf("the next node: %v", err)
	}
	if got := client.Rotate("a,b,c", 4); got != "b,c,a" {
		t.Fatalf("Rotate: %q", got)
	}
	if got := client.Rotate("a", 3); got != "a" {
		t.Fatalf("Rotate of one: %q", got)
	}
}

func freeAddrServer(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// A request for a table the node it reached has just dropped (fenced or
// handed over, before the others' scan says who serves it next) is 503
// "moved", which the client tries again, never 404 "no table", which it
// takes as final; a table that does not exist is still 404.
func TestClusterDroppedTableIsMovedNotNotFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t, 2)
	a := c.nodes[0]
	tb := c.tables(1)[0]
	if c.owner(tb) != a {
		t.Fatal("the table is not its creator's")
	}
	ana := c.player("ana", a)
	ana.Resends = -1 // the first answer
	restore := server.ForgetTable(a, tb)
	_, err := ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1})
	wantCode(t, err, sabot.EUNAVAILABLE, "") // "moved" (or the node cannot reach its database, on a loaded machine)
	_, err = ana.Table(ctx, tb)
	wantCode(t, err, sabot.EUNAVAILABLE, "") // "moved" (or the node cannot reach its database, on a loaded machine)
	restore()
	_, err = ana.Table(ctx, tb+1000)
	wantCode(t, err, sabot.ENOTFOUND, "no table")
}

// The addresses a name logged in from are kept in the database: after the
// owner logged in through node a, node b knows his address too, so that
// the guesses that exhaust the name's bucket for strangers' addresses
// (LoginNameAllBurst) do not lock him out through b.
func TestClusterKnownAddressesShared(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newClusterWith(t, 2, func(s *server.Server) {
		s.LoginNameAllBurst, s.LoginNameAllEvery = 2, time.Hour
		s.LoginNameBurst, s.LoginAddrBurst = 100, 100
	})
	a, b := c.nodes[0], c.nodes[1]
	c.player("ana", a) // registered and logged in through a
	viaB := &client.Client{URL: b.URL()}
	for range 3 {
		_, err := viaB.Login(ctx, "ana", "not her password")
		if sabot.ErrorCode(err) != sabot.EUNAUTHORIZED {
			t.Fatalf("a wrong password through b from ana's address: %v; want EUNAUTHORIZED, not throttled", err)
		}
	}
	if _, err := viaB.Login(ctx, "ana", password); err != nil {
		t.Fatalf("ana through b after the guesses: %v", err)
	}
}
