package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"sabot"
)

// Several nodes, one database (issue 12).
//
// Where the store is a sabot.Cluster, the server is a node: it joins with a
// lease and serves the tables it owns, each under the epoch of its claim,
// which every append carries (actor.write): the store refuses an append
// under an epoch that another claim has replaced, in the append's own
// transaction, so that a node paused or cut off can never write after
// another has taken its tables over. Alone on its store (Shared false: a
// SQLite file, which one process holds), a node takes every table at start,
// those of a process that died included, and renews nothing.
//
// Shared (PostgreSQL), the nodes share the tables out: every scan (Lease/8)
// a node reads the leases, claims free tables while it owns fewer than its
// share (the tables over the live nodes that are not draining, rounded up),
// and hands over what it owns beyond its share while another node owns
// less; a table is handed over between rounds (actor.run), released, and
// claimed by the node short of its share. A node renews its lease every
// Lease/4; a node that dies stops renewing, and once its lease has expired
// its tables are free and claimed by the survivors, which rebuild each from
// its log as a start does. A node whose own lease expired (a pause longer
// than its lease) drops every table and joins again as a new node. Requests
// for a table owned by another node are forwarded to it (forward.go).

// DefaultLease is a node's lease: the tables of a node that dies are free
// within it, and claimed within a scan (DefaultLease/8) after.
const DefaultLease = 4 * time.Second

// DefaultDrainTimeout bounds how long Drain waits for the rounds in play.
const DefaultDrainTimeout = 2 * time.Minute

// soleLease is the lease of a node alone on its store: it is never renewed,
// and the next process on the store frees it at its start.
const soleLease = 10 * 365 * 24 * time.Hour

// nodes is the server's part in a cluster.
type nodes struct {
	c     sabot.Cluster
	lease time.Duration

	mu       sync.Mutex
	self     sabot.Node
	renewed  time.Time             // the last renewal that succeeded, this process's clock
	owners   map[int64]sabot.Lease // by table, as last read
	peers    map[string]sabot.Node // by ID, as last read
	hosts    map[string]bool       // the IP addresses of the live nodes
	free     map[int64]int         // scans each free table has been seen free
	broken   map[int64]time.Time   // tables that failed to load here: not claimed again before then
	refresh  time.Time             // the last read of the leases
	read     chan struct{}         // closed at the next read of the leases
	draining bool
	paused   atomic.Bool // tests: the node neither renews nor shares out, as if stopped (PauseNode)
}

func (s *Server) leaseTime() time.Duration {
	if s.Lease > 0 {
		return s.Lease
	}
	return DefaultLease
}

// nodeID names a node: its machine, its process, and a random part (a
// process that joins again after losing its lease is a new node).
func nodeID() string {
	host, _ := os.Hostname()
	if host == "" {
		host = "node"
	}
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), randomID(3))
}

// advertise is the URL other nodes reach this one at.
func (s *Server) advertise() string {
	if s.Advertise != "" {
		return s.Advertise
	}
	addr := s.ln.Addr().(*net.TCPAddr)
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host, _ = os.Hostname()
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(addr.Port))
}

// join makes the server a node of its store's cluster, if the store is one.
func (s *Server) join(ctx context.Context) error {
	c, ok := s.Store.(sabot.Cluster)
	if !ok {
		return nil
	}
	if s.Shared && s.SeedKey == nil {
		return errors.New("server: the nodes of a shared store need the seed key they share (it also authenticates what they tell each other)")
	}
	n := &nodes{c: c, lease: s.leaseTime(), owners: map[int64]sabot.Lease{}, peers: map[string]sabot.Node{}, read: make(chan struct{}),
		hosts: map[string]bool{}, free: map[int64]int{}, broken: map[int64]time.Time{}}
	ttl := n.lease
	if !s.Shared {
		ttl = soleLease
		// Alone on the store: a node that did not leave died.
		ns, err := c.Nodes(ctx)
		if err != nil {
			return err
		}
		for _, o := range ns {
			if !o.Left {
				if err := c.Leave(ctx, o.ID); err != nil {
					return err
				}
			}
		}
	}
	n.self = sabot.Node{ID: nodeID(), URL: s.advertise()}
	if err := c.Join(ctx, &n.self, ttl); err != nil {
		return err
	}
	n.renewed = time.Now()
	s.nodes = n
	s.logger().Info("node joined", "node", n.self.ID, "url", n.self.URL, "shared", s.Shared)
	return nil
}

// claim takes a table for this node and starts it: its epoch is the
// lease's, its state the log's.
func (s *Server) claim(ctx context.Context, t *sabot.Table) (*actor, error) {
	if s.nodes == nil {
		return s.startTable(t, 0)
	}
	epoch, err := s.nodes.c.Claim(ctx, s.nodes.self.ID, t.ID)
	if err != nil {
		return nil, err
	}
	a, err := s.startTable(t, epoch)
	if err != nil {
		// Free it for another node (its log is what it is; the others
		// will say the same, and the table waits for an operator).
		s.nodes.c.Release(context.WithoutCancel(ctx), s.nodes.self.ID, t.ID, epoch)
		return nil, err
	}
	s.metrics.claims.Inc()
	return a, nil
}

// moved takes a table's actor off the node once it has stopped for another
// node (actor.run): fenced (another node owns it already) or handed over
// (its lease is released for another to claim).
func (s *Server) moved(a *actor) {
	s.mu.Lock()
	if s.tables[a.created.ID] == a {
		delete(s.tables, a.created.ID)
	}
	s.mu.Unlock()
	s.metrics.tables.Dec()
	if a.fenced {
		s.metrics.leaseLost.Inc()
		s.logger().Warn("table lost to another node", "table", a.created.ID, "epoch", a.lease)
		return
	}
	s.metrics.handedOver.Inc()
	if s.nodes != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.nodes.c.Release(ctx, s.nodes.self.ID, a.created.ID, a.lease); err != nil {
			s.logger().Warn("a table handed over was not released: it is free when the lease expires", "table", a.created.ID, "err", err)
		}
	}
	s.logger().Info("table handed over", "table", a.created.ID)
	if s.nodes != nil {
		s.nodes.mu.Lock()
		s.nodes.refresh = time.Time{} // read the leases at once
		s.nodes.mu.Unlock()
	}
}

// handOver asks a table's actor to stop between rounds for another node.
func (a *actor) requestHandOver() { a.handOnce.Do(func() { close(a.handOver) }) }

// fence stops a table that this node may no longer own (its lease
// expired): the actor stops after the step in hand.
func fence(a *actor) reply {
	a.fenced = true
	return reply{}
}

// nodeLoop renews the node's lease (every Lease/4) and, apart, shares the
// tables out (every Lease/8), until the server stops: a scan that takes
// long (many tables to rebuild after a node died) never delays a renewal.
func (s *Server) nodeLoop(ctx context.Context) {
	n := s.nodes
	every := func(d time.Duration, fn func()) {
		tick := time.NewTicker(d)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if !n.paused.Load() {
				fn()
			}
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { every(n.lease/4, func() { s.renew(ctx) }) })
	wg.Go(func() {
		every(n.lease/8, func() {
			if err := s.shareOut(ctx); err != nil && ctx.Err() == nil {
				s.logger().Warn("the tables were not shared out", "err", err)
			}
		})
	})
	wg.Wait()
}

// renew renews the node's lease. Lost (expired, or out of reach for longer
// than the lease), the node drops every table and joins again.
func (s *Server) renew(ctx context.Context) {
	n := s.nodes
	rctx, cancel := context.WithTimeout(ctx, n.lease/2)
	err := n.c.Renew(rctx, n.self.ID, n.lease)
	cancel()
	n.mu.Lock()
	if err == nil {
		n.renewed = time.Now()
	}
	late := time.Since(n.renewed) > n.lease
	unanswered := time.Since(n.renewed) > n.lease/2
	n.mu.Unlock()
	switch {
	case err == nil || errors.Is(err, sabot.ErrLeaseLost):
		s.reached(true, nil)
	case unanswered && ctx.Err() == nil:
		s.reached(false, err)
	}
	if err == nil {
		s.metrics.renewals.Inc()
		return
	}
	if ctx.Err() != nil || !errors.Is(err, sabot.ErrLeaseLost) && !late {
		s.logger().Warn("lease not renewed", "node", n.self.ID, "err", err)
		return
	}
	s.logger().Error("the node's lease is lost: its tables are dropped, it joins again", "node", n.self.ID, "err", err)
	for _, a := range s.tableList() {
		fctx, cancel := context.WithTimeout(ctx, time.Second) // one stuck in a write is fenced by the store anyway
		a.do(fctx, &command{inside: fence})
		cancel()
	}
	if !errors.Is(err, sabot.ErrLeaseLost) {
		return // out of reach: try again at the next renewal, which fails
	}
	self := sabot.Node{ID: nodeID(), URL: n.self.URL}
	if err := n.c.Join(ctx, &self, n.lease); err != nil {
		s.logger().Error("the node could not join again", "err", err)
		return
	}
	n.mu.Lock()
	n.self, n.renewed = self, time.Now()
	n.mu.Unlock()
	s.logger().Info("node joined again", "node", self.ID)
}

// readLeases reads the nodes and the leases into the directory.
func (s *Server) readLeases(ctx context.Context) ([]sabot.Lease, []sabot.Node, error) {
	n := s.nodes
	ns, err := n.c.Nodes(ctx)
	if err != nil {
		return nil, nil, err
	}
	ls, err := n.c.Leases(ctx)
	if err != nil {
		return nil, nil, err
	}
	// The live nodes' addresses, resolved before the lock is taken.
	hosts := map[string]bool{}
	for _, o := range ns {
		if !o.Live {
			continue
		}
		if u, err := url.Parse(o.URL); err == nil {
			if ip := net.ParseIP(u.Hostname()); ip != nil {
				hosts[hostOf(ip.String())] = true
			} else if ips, err := net.DefaultResolver.LookupHost(ctx, u.Hostname()); err == nil {
				for _, ip := range ips {
					hosts[hostOf(ip)] = true
				}
			}
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.refresh = time.Now()
	clear(n.peers)
	for _, o := range ns {
		n.peers[o.ID] = o
	}
	n.hosts = hosts
	clear(n.owners)
	for _, l := range ls {
		n.owners[l.TableID] = l
	}
	close(n.read)
	n.read = make(chan struct{})
	return ls, ns, nil
}

// shareOut reads the leases, reports the nodes lost, claims the free tables
// while the node owns fewer than its share, and hands over what it owns
// beyond it while another owns less.
func (s *Server) shareOut(ctx context.Context) error {
	n := s.nodes
	ls, ns, err := s.readLeases(ctx)
	if err != nil {
		return err
	}
	n.mu.Lock()
	self, draining := n.self.ID, n.draining
	n.mu.Unlock()
	sharing, owned := 0, map[string]int{}
	for _, o := range ns {
		if o.Live && !o.Draining {
			sharing++
		}
		if !o.Live && !o.Left && !o.Lost {
			if lost, err := n.c.NodeLost(ctx, o.ID); err == nil && lost {
				held := 0
				for _, l := range ls {
					if l.Node == o.ID {
						held++
					}
				}
				s.metrics.nodesLost.Inc()
				s.logger().Warn("node lost", "node", o.ID, "url", o.URL, "tables", held)
				s.event(ctx, nil, adminPayload{Event: "node-lost", Node: o.ID, URL: o.URL, Tables: held, At: o.Renewed.UTC().Format(time.RFC3339Nano),
					Text: fmt.Sprintf("node %s (%s) stopped renewing its lease at %s holding %d tables: they are taken over", o.ID, o.URL, o.Renewed.Format(time.RFC3339Nano), held)}, nil, "")
			}
		}
	}
	s.metrics.nodes.Set(float64(sharing))
	if draining || sharing == 0 {
		return nil
	}
	var free []sabot.Lease
	for _, l := range ls {
		if l.Live {
			owned[l.Node]++
			continue
		}
		if _, err := s.table(l.TableID); err == nil {
			continue // stopping here
		}
		free = append(free, l)
	}
	share := (len(ls) + sharing - 1) / sharing
	mine := len(s.tableList())
	seen := map[int64]int{}
	rand.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	for _, l := range free {
		n.mu.Lock()
		seen[l.TableID] = n.free[l.TableID] + 1
		until := n.broken[l.TableID]
		n.mu.Unlock()
		// A table free for three scans is taken by anyone: its fair
		// owner is slow, or the shares are rounded against it.
		if mine >= share && seen[l.TableID] < 3 || time.Now().Before(until) {
			continue
		}
		t, err := s.Store.TableByID(ctx, l.TableID)
		if err != nil {
			return err
		}
		var prev *sabot.Node
		for _, o := range ns {
			if o.ID == l.Node {
				prev = &o
			}
		}
		if _, err := s.claim(ctx, t); err != nil {
			if code := sabot.ErrorCode(err); code != sabot.ECONFLICT && code != sabot.EUNAVAILABLE && !errors.Is(err, sabot.ErrLeaseLost) {
				s.logger().Error("a table could not be taken over: left for a minute", "table", t.ID, "err", err)
				n.mu.Lock()
				n.broken[t.ID] = time.Now().Add(time.Minute)
				n.mu.Unlock()
			}
			continue
		}
		mine++
		delete(seen, l.TableID)
		if prev != nil && !prev.Left {
			// A node's tables taken over after it died: from its last
			// renewal to the table serving again.
			s.metrics.failover.Observe(time.Since(prev.Renewed).Seconds())
		}
		s.logger().Info("table claimed", "table", t.ID, "from", l.Node)
	}
	n.mu.Lock()
	n.free = seen
	n.mu.Unlock()
	// Beyond the share, while another node is short of it: hand over.
	short := false
	for _, o := range ns {
		if o.Live && !o.Draining && o.ID != self && owned[o.ID] < share {
			short = true
		}
	}
	if excess := mine - share; excess > 0 && short {
		for _, a := range s.tableList() {
			if excess == 0 {
				break
			}
			if !a.handingOver() {
				a.requestHandOver()
				excess--
			}
		}
	}
	return nil
}

// draining reports whether the node is handing its tables over to stop.
func (s *Server) draining() bool {
	if s.nodes == nil {
		return false
	}
	s.nodes.mu.Lock()
	defer s.nodes.mu.Unlock()
	return s.nodes.draining
}

// handingOver reports whether the table has been asked to hand over.
func (a *actor) handingOver() bool {
	select {
	case <-a.handOver:
		return true
	default:
		return false
	}
}

// Drain hands every table this node serves over to the other nodes,
// between rounds, and returns when none is left or ctx is done (a round
// that does not end in time is suspended by Close and resumed by the node
// that claims the table). A node alone on its store has nobody to hand to:
// Drain returns at once.
func (s *Server) Drain(ctx context.Context) error {
	if s.nodes == nil || !s.Shared {
		return nil
	}
	n := s.nodes
	n.mu.Lock()
	n.draining = true
	self := n.self.ID
	n.mu.Unlock()
	if err := n.c.Drain(ctx, self); err != nil {
		return err
	}
	s.logger().Info("draining: the tables are handed over between rounds", "tables", len(s.tableList()))
	for _, a := range s.tableList() {
		a.requestHandOver()
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for i := 0; len(s.tableList()) > 0; i++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		if i%10 == 9 && !s.othersShare(ctx) {
			// Nobody to take them (the last node, or every node
			// stopping at once): Close suspends what is left.
			return nil
		}
	}
	return nil
}

// othersShare reports whether another live node takes tables.
func (s *Server) othersShare(ctx context.Context) bool {
	ns, err := s.nodes.c.Nodes(ctx)
	if err != nil {
		return true
	}
	self := s.selfID()
	for _, n := range ns {
		if n.Live && !n.Draining && n.ID != self {
			return true
		}
	}
	return false
}

// Eldest reports whether this node is the first of the live nodes to have
// joined (a node alone on its store always is): of several nodes started
// at once on an empty store, one opens the default tables.
func (s *Server) Eldest(ctx context.Context) bool {
	if s.nodes == nil || !s.Shared {
		return true
	}
	ns, err := s.nodes.c.Nodes(ctx)
	if err != nil {
		return false
	}
	self := s.selfID()
	for _, n := range ns { // in the order they joined
		if n.Live {
			return n.ID == self
		}
	}
	return false
}

// leave ends the node's lease as the server closes: its tables (suspended
// already) are free at once.
func (s *Server) leave() {
	if s.nodes == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.nodes.mu.Lock()
	self := s.nodes.self.ID
	s.nodes.mu.Unlock()
	if err := s.nodes.c.Leave(ctx, self); err != nil {
		s.logger().Warn("the node did not leave: its tables are free when its lease expires", "err", err)
	}
}
