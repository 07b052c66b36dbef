package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"sabot"
)

// fakeStore is a sabot.Cluster in memory: the nodes and leases a test sets.
type fakeStore struct {
	mu       sync.Mutex
	nodes    []sabot.Node
	leases   []sabot.Lease
	epochs   map[int64]int64
	released []sabot.Lease
	lost     map[string]bool
	renew    error
	renewals int // renewals asked for
}

func (f *fakeStore) Join(ctx context.Context, n *sabot.Node, ttl time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n.Live = true
	f.nodes = append(f.nodes, *n)
	return nil
}
func (f *fakeStore) Renew(ctx context.Context, node string, ttl time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renewals++
	return f.renew
}
func (f *fakeStore) Drain(ctx context.Context, node string) error { return nil }
func (f *fakeStore) Leave(ctx context.Context, node string) error { return nil }
func (f *fakeStore) Claim(ctx context.Context, node string, table int64) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, l := range f.leases {
		if l.TableID == table {
			if l.Live {
				return 0, sabot.Errorf(sabot.ECONFLICT, "owned")
			}
			f.epochs[table]++
			f.leases[i] = sabot.Lease{TableID: table, Node: node, Epoch: f.epochs[table], Live: true}
			return f.epochs[table], nil
		}
	}
	return 0, sabot.Errorf(sabot.ENOTFOUND, "no table")
}
func (f *fakeStore) Release(ctx context.Context, node string, table, epoch int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.released = append(f.released, sabot.Lease{TableID: table, Node: node, Epoch: epoch})
	for i, l := range f.leases {
		if l.TableID == table {
			f.leases[i].Live = false
		}
	}
	return nil
}
func (f *fakeStore) Nodes(ctx context.Context) ([]sabot.Node, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sabot.Node(nil), f.nodes...), nil
}
func (f *fakeStore) Leases(ctx context.Context) ([]sabot.Lease, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sabot.Lease(nil), f.leases...), nil
}
func (f *fakeStore) NodeLost(ctx context.Context, node string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lost[node] {
		return false, nil
	}
	f.lost[node] = true
	return true, nil
}

// fakeTables are a server's tables: the IDs it serves.
type fakeTables struct {
	mu        sync.Mutex
	served    map[int64]bool
	handOver  int // tables asked to hand over
	fenced    bool
	lost      map[string]int // node lost → tables it held
	startFail error
	starts    int // tables asked to start
}

func (t *fakeTables) Start(tb *sabot.Table, epoch int64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.starts++
	if t.startFail != nil {
		return t.startFail
	}
	t.served[tb.ID] = true
	return nil
}
func (t *fakeTables) Serves(id int64) bool { t.mu.Lock(); defer t.mu.Unlock(); return t.served[id] }
func (t *fakeTables) Served() int          { t.mu.Lock(); defer t.mu.Unlock(); return len(t.served) }
func (t *fakeTables) HandOver(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n < 0 {
		n = len(t.served)
	}
	t.handOver += n
}
func (t *fakeTables) Fence(ctx context.Context) { t.mu.Lock(); defer t.mu.Unlock(); t.fenced = true }
func (t *fakeTables) Table(ctx context.Context, id int64) (*sabot.Table, error) {
	return &sabot.Table{ID: id, Profile: "spain"}, nil
}
func (t *fakeTables) NodeLost(ctx context.Context, n sabot.Node, tables int) { t.lost[n.ID] = tables }

// newNode is a node joined to a shared fake store, beside others.
func newNode(t *testing.T, f *fakeStore, tables *fakeTables) *Cluster {
	t.Helper()
	if f.epochs == nil {
		f.epochs, f.lost = map[int64]int64{}, map[string]bool{}
	}
	c := &Cluster{Store: f, Shared: true, Key: []byte("k"), Tables: tables, Metrics: NewMetrics(),
		WriteError: func(w http.ResponseWriter, r *http.Request, err error) { http.Error(w, err.Error(), 503) }}
	if err := c.Join(context.Background(), "http://127.0.0.1:1"); err != nil {
		t.Fatal(err)
	}
	return c
}

func freeLeases(n int) []sabot.Lease {
	var ls []sabot.Lease
	for i := 1; i <= n; i++ {
		ls = append(ls, sabot.Lease{TableID: int64(i)})
	}
	return ls
}

// A node claims free tables up to its share: the tables over the live
// nodes that are not draining, rounded up.
func TestShareOutClaimsItsShare(t *testing.T) {
	for _, c := range []struct {
		name   string
		tables int
		others []sabot.Node
		want   int
	}{
		{"alone", 7, nil, 7},
		{"one other", 7, []sabot.Node{{ID: "b", Live: true}}, 4},
		{"two others", 9, []sabot.Node{{ID: "b", Live: true}, {ID: "c", Live: true}}, 3},
		{"one draining", 9, []sabot.Node{{ID: "b", Live: true}, {ID: "c", Live: true, Draining: true}}, 5},
		{"one dead", 9, []sabot.Node{{ID: "b", Live: true}, {ID: "c", Left: true}}, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeStore{nodes: c.others, leases: freeLeases(c.tables)}
			tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
			n := newNode(t, f, tables)
			if err := n.ShareOut(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := tables.Served(); got != c.want {
				t.Errorf("claimed %d of %d tables, want %d", got, c.tables, c.want)
			}
			if tables.handOver != 0 {
				t.Errorf("handed over %d tables", tables.handOver)
			}
		})
	}
}

// A table left free for three scans is taken by a node beyond its share.
func TestShareOutTakesATableLeftFree(t *testing.T) {
	f := &fakeStore{nodes: []sabot.Node{{ID: "b", Live: true}}, leases: freeLeases(4)}
	tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
	n := newNode(t, f, tables)
	ctx := context.Background()
	for scan := 1; scan <= 3; scan++ {
		if err := n.ShareOut(ctx); err != nil {
			t.Fatal(err)
		}
		want := 2
		if scan == 3 {
			want = 4 // the other node never claimed its two
		}
		if got := tables.Served(); got != want {
			t.Fatalf("scan %d: %d tables served, want %d", scan, got, want)
		}
	}
}

// A node that owns more than its share while another owns less hands the
// excess over; while every other node has its share, it keeps them.
func TestShareOutHandsOverTheExcess(t *testing.T) {
	ctx := context.Background()
	f := &fakeStore{}
	tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
	n := newNode(t, f, tables)
	self := n.SelfID()
	for i := int64(1); i <= 6; i++ {
		f.leases = append(f.leases, sabot.Lease{TableID: i, Node: self, Epoch: 1, Live: true})
		tables.served[i] = true
	}
	f.nodes = append(f.nodes, sabot.Node{ID: "b", Live: true})
	if err := n.ShareOut(ctx); err != nil {
		t.Fatal(err)
	}
	if tables.handOver != 3 {
		t.Errorf("handed over %d of 6 tables to a node with none, want 3", tables.handOver)
	}
	tables.handOver = 0
	f.nodes[len(f.nodes)-1].Draining = true
	if err := n.ShareOut(ctx); err != nil {
		t.Fatal(err)
	}
	if tables.handOver != 0 {
		t.Errorf("handed over %d tables to a draining node", tables.handOver)
	}
}

// A node whose lease expired holding tables is reported lost once, with
// the tables it held; they are taken over.
func TestShareOutReportsANodeLost(t *testing.T) {
	f := &fakeStore{nodes: []sabot.Node{{ID: "dead", Renewed: time.Now().Add(-10 * time.Second)}},
		leases: []sabot.Lease{{TableID: 1, Node: "dead", Epoch: 3}, {TableID: 2, Node: "dead", Epoch: 1}, {TableID: 3}}}
	tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
	n := newNode(t, f, tables)
	for range 2 {
		if err := n.ShareOut(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(tables.lost) != 1 || tables.lost["dead"] != 2 {
		t.Errorf("nodes reported lost: %v, want dead holding 2", tables.lost)
	}
	if tables.Served() != 3 {
		t.Errorf("%d tables taken over, want 3", tables.Served())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.epochs[1] != 1 || f.leases[0].Node != n.SelfID() {
		t.Errorf("table 1's lease: %+v (epoch %d)", f.leases[0], f.epochs[1])
	}
}

// A table claimed that does not start is released under its epoch, for
// another node to try; a server that is no node starts tables unfenced.
func TestClaim(t *testing.T) {
	ctx := context.Background()
	f := &fakeStore{leases: freeLeases(1)}
	tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
	n := newNode(t, f, tables)
	f.epochs[1] = 4
	broken := errors.New("its log does not replay")
	if err := n.Claim(ctx, 1, func(epoch int64) error {
		if epoch != 5 {
			t.Errorf("started under epoch %d, want 5", epoch)
		}
		return broken
	}); !errors.Is(err, broken) {
		t.Fatalf("claim: %v", err)
	}
	if len(f.released) != 1 || f.released[0] != (sabot.Lease{TableID: 1, Node: n.SelfID(), Epoch: 5}) {
		t.Errorf("released: %+v", f.released)
	}
	var alone Cluster
	var epoch int64 = -1
	if err := alone.Claim(ctx, 1, func(e int64) error { epoch = e; return nil }); err != nil || epoch != 0 {
		t.Errorf("no node: epoch %d, %v", epoch, err)
	}
}

// A renewal that finds the lease lost fences every table and joins again
// as a new node.
func TestRenewLost(t *testing.T) {
	f := &fakeStore{}
	tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
	n := newNode(t, f, tables)
	first := n.SelfID()
	f.renew = sabot.ErrLeaseLost
	n.renew(context.Background())
	if !tables.fenced {
		t.Error("the tables were not fenced")
	}
	if again := n.SelfID(); again == first || len(f.nodes) != 2 || f.nodes[1].ID != again {
		t.Errorf("joined again as %q (was %q); nodes %+v", again, first, f.nodes)
	}
	if n.Unreachable() {
		t.Error("a lost lease is an answer of the database: it is reached")
	}
}

// A node that cannot renew for half its lease refuses API requests at once
// (503 with a retry hint), cuts those in flight and serves again once a
// renewal succeeds; a WebSocket is left to its table.
func TestReach(t *testing.T) {
	f := &fakeStore{}
	tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
	n := newNode(t, f, tables)
	var refused []error
	n.WriteError = func(w http.ResponseWriter, r *http.Request, err error) {
		refused = append(refused, err)
		w.WriteHeader(503)
	}
	inFlight := make(chan context.Context, 1)
	release := make(chan struct{})
	h := n.Forward(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/slow" {
			inFlight <- r.Context()
			<-release
		}
	}))
	do := func(path string, ws bool) int {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", path, nil)
		if ws {
			r.Header.Set("Upgrade", "websocket")
		}
		h.ServeHTTP(rec, r)
		return rec.Code
	}
	if code := do("/api/site", false); code != 200 {
		t.Fatalf("reached: %d", code)
	}
	done := make(chan struct{})
	go func() { do("/api/slow", false); close(done) }()
	ctx := <-inFlight
	f.renew = errors.New("connection refused")
	joined := time.Now()
	n.Now = func() time.Time { return joined.Add(n.LeaseTime()) } // nothing has answered for a lease
	n.renew(context.Background())
	if !n.Unreachable() {
		t.Fatal("the database is not seen out of reach")
	}
	<-ctx.Done()
	if !errors.Is(context.Cause(ctx), ErrDBUnreachable) {
		t.Errorf("the request in flight was cut by %v", context.Cause(ctx))
	}
	close(release)
	<-done
	if code := do("/api/site", false); code != 503 || len(refused) != 1 {
		t.Fatalf("out of reach: %d, refusals %v", code, refused)
	}
	var e *sabot.Error
	if !errors.As(refused[0], &e) || e.Code != sabot.EUNAVAILABLE || e.RetryAfter != UnreachableRetry || !errors.Is(refused[0], ErrDBUnreachable) {
		t.Errorf("the refusal: %#v", refused[0])
	}
	if code := do("/healthz", false); code != 200 {
		t.Errorf("a path outside the API out of reach: %d", code)
	}
	f.renew = nil
	n.renew(context.Background())
	if n.Unreachable() {
		t.Fatal("the database answers again, the node still refuses")
	}
	if code := do("/api/site", false); code != 200 || len(refused) != 1 {
		t.Errorf("reached again: %d, refusals %v", code, refused)
	}
}

// A renewal that fails for less than half the lease changes nothing.
func TestReachShortOutage(t *testing.T) {
	f := &fakeStore{renew: errors.New("timeout")}
	n := newNode(t, f, &fakeTables{served: map[int64]bool{}, lost: map[string]int{}})
	n.renew(context.Background())
	if n.Unreachable() {
		t.Error("one failed renewal took the node out")
	}
}

// A nonce is good once until its header is too old; then it is forgotten.
func TestNonceOnce(t *testing.T) {
	var c nonceCache
	until := time.Now().Add(time.Minute)
	if !c.first("a 1", until) || c.first("a 1", until) {
		t.Fatal("a nonce was not good exactly once")
	}
	if !c.first("a 2", until) {
		t.Error("another nonce was refused")
	}
	if !c.first("b 1", time.Now().Add(-time.Second)) || !c.first("b 1", until) {
		t.Error("a nonce past its time was still remembered")
	}
	c.swept = time.Time{}
	c.first("c", until)
	if _, ok := c.seen["b 1"]; !ok {
		t.Error("b 1 (renewed) was swept")
	}
	c.seen["old"] = time.Now().Add(-time.Second)
	c.swept = time.Time{}
	c.first("d", until)
	if _, ok := c.seen["old"]; ok {
		t.Error("an expired nonce was not swept")
	}
}

func TestHostOf(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.2:8080":          "10.0.0.2",
		"10.0.0.2":               "10.0.0.2",
		"[::ffff:10.0.0.2]:8080": "10.0.0.2",
		"[fe80::1%eth0]:80":      "fe80::1",
		"node-a:8080":            "node-a",
	} {
		if got := HostOf(in); got != want {
			t.Errorf("HostOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTableOfPath(t *testing.T) {
	for in, want := range map[string]int64{
		"/api/tables/3":     3,
		"/api/tables/3/act": 3,
		"/api/tables/12/ws": 12,
		"/api/tables":       0,
		"/api/tables/":      0,
		"/api/tables/0":     0,
		"/api/tables/-1":    0,
		"/api/tables/x/act": 0,
		"/api/shoes/3":      0,
		"/tables/3":         0,
	} {
		id, ok := tableOfPath(in)
		if ok != (want != 0) || id != want && ok {
			t.Errorf("tableOfPath(%q) = %d, %v; want %d", in, id, ok, want)
		}
	}
}

// The lobby is this node's tables and those every other live node lists
// for its own, asked under a signed header that carries the client's
// address; each table once, in order.
func TestLobby(t *testing.T) {
	ctx := context.Background()
	f := &fakeStore{}
	a := newNode(t, f, &fakeTables{served: map[int64]bool{}, lost: map[string]int{}})
	b := &Cluster{Store: f, Shared: true, Key: a.Key, Metrics: NewMetrics()}
	asked := make(chan string, 1)
	peer := httptest.NewServer(b.Forward(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(localHeaderName) == "" {
			t.Errorf("the peer was asked for every node's tables")
		}
		asked <- ClientAddr(r)
		json.NewEncoder(w).Encode([]int64{2, 3, 4})
	})))
	defer peer.Close()
	if err := b.Join(ctx, peer.URL); err != nil {
		t.Fatal(err)
	}
	for _, n := range []*Cluster{a, b} { // b trusts a header from a live node's address only
		if _, _, err := n.readLeases(ctx); err != nil {
			t.Fatal(err)
		}
	}
	r := httptest.NewRequest("GET", "/api/tables", nil)
	r.RemoteAddr = "198.51.100.7:4242"
	got := Lobby(ctx, a, r, []int64{3, 1}, func(v int64) int64 { return v })
	if want := []int64{1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("lobby: %v, want %v", got, want)
	}
	if addr := <-asked; addr != r.RemoteAddr {
		t.Errorf("the peer counted the request as %q's", addr)
	}
	// Asked again at once: the lobby as gathered, no peer asked.
	if got := Lobby(ctx, a, r, []int64{1}, func(v int64) int64 { return v }); len(got) != 4 || len(asked) != 0 {
		t.Errorf("a lobby asked again at once: %v", got)
	}
}

// The lobby of a node that is no node, or of a request a node signed for
// its tables only, is the node's own tables.
func TestLobbyLocal(t *testing.T) {
	var alone Cluster
	r := httptest.NewRequest("GET", "/api/tables", nil)
	got := Lobby(context.Background(), &alone, r, []int64{3, 1}, func(v int64) int64 { return v })
	if len(got) != 2 || got[0] != 3 {
		t.Errorf("lobby: %v", got)
	}
}
