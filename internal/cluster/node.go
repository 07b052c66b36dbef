package cluster

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

// Several nodes, one database.
//
// Where the store is a sabot.Cluster, the server is a node: it joins with a
// lease and serves the tables it owns, each under the epoch of its claim,
// which every append carries (the server's actor.write): the store refuses
// an append under an epoch that another claim has replaced, in the append's
// own transaction, so that a node paused or cut off can never write after
// another has taken its tables over. Alone on its store (Shared false: a
// SQLite file, which one process holds), a node takes every table at start,
// those of a process that died included, and renews nothing.
//
// Shared (PostgreSQL), the nodes share the tables out: every scan (Lease/8)
// a node reads the leases, claims free tables while it owns fewer than its
// share (the tables over the live nodes that are not draining, rounded up),
// and hands over what it owns beyond its share while another node owns
// less; a table is handed over between rounds (the server's actor.run),
// released, and claimed by the node short of its share. A node renews its
// lease every Lease/4; a node that dies stops renewing, and once its lease
// has expired its tables are free and claimed by the survivors, which
// rebuild each from its log as a start does. A node whose own lease expired
// (a pause longer than its lease) drops every table and joins again as a
// new node. Requests for a table owned by another node are forwarded to it
// (forward.go).

// DefaultLease is a node's lease: the tables of a node that dies are free
// within it, and claimed within a scan (DefaultLease/8) after.
const DefaultLease = 4 * time.Second

// DefaultDrainTimeout bounds how long Drain waits for the rounds in play.
const DefaultDrainTimeout = 2 * time.Minute

// brokenWait is how long a table that failed to load here is left before
// this node tries it again.
const brokenWait = time.Minute

// soleLease is the lease of a node alone on its store: it is never renewed,
// and the next process on the store frees it at its start.
const soleLease = 10 * 365 * 24 * time.Hour

// node is the server's part in a cluster once it has joined.
type node struct {
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
	paused   atomic.Bool // tests: the node neither renews nor shares out, as if stopped (Pause)
}

// LeaseTime is the lease a node takes: Lease, or DefaultLease.
func (c *Cluster) LeaseTime() time.Duration {
	if c.Lease > 0 {
		return c.Lease
	}
	return DefaultLease
}

// NodeID names a node: its machine, its process, and a random part (a
// process that joins again after losing its lease is a new node).
func NodeID() string {
	host, _ := os.Hostname()
	if host == "" {
		host = "node"
	}
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), randomID(3))
}

// Advertise is the URL other nodes reach a node at: advertise, else the
// address it listens on (the machine's name where it listens on every
// address).
func Advertise(advertise string, addr *net.TCPAddr) string {
	if advertise != "" {
		return advertise
	}
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host, _ = os.Hostname()
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(addr.Port))
}

// Join makes the server a node of its store's cluster, if the store is
// one, reached at the URL given.
func (c *Cluster) Join(ctx context.Context, url string) error {
	if c.Store == nil {
		return nil
	}
	if c.Shared && c.Key == nil {
		return errors.New("server: the nodes of a shared store need the seed key they share (it also authenticates what they tell each other)")
	}
	n := &node{lease: c.LeaseTime(), owners: map[int64]sabot.Lease{}, peers: map[string]sabot.Node{}, read: make(chan struct{}),
		hosts: map[string]bool{}, free: map[int64]int{}, broken: map[int64]time.Time{}}
	ttl := n.lease
	if !c.Shared {
		ttl = soleLease
		// Alone on the store: a node that did not leave died.
		ns, err := c.Store.Nodes(ctx)
		if err != nil {
			return err
		}
		for _, o := range ns {
			if !o.Left {
				if err := c.Store.Leave(ctx, o.ID); err != nil {
					return err
				}
			}
		}
	}
	n.self = sabot.Node{ID: NodeID(), URL: url}
	if err := c.Store.Join(ctx, &n.self, ttl); err != nil {
		return err
	}
	n.renewed = c.now()
	c.node = n
	c.logger().Info("node joined", "node", n.self.ID, "url", n.self.URL, "shared", c.Shared)
	return nil
}

// Self is the node as it joined (its ID "" if it is no node).
func (c *Cluster) Self() sabot.Node {
	if c.node == nil {
		return sabot.Node{}
	}
	c.node.mu.Lock()
	defer c.node.mu.Unlock()
	return c.node.self
}

// SelfID is the node's ID ("" if it is no node).
func (c *Cluster) SelfID() string { return c.Self().ID }

// Pause stops (or starts again) the node's lease renewals and sharing out,
// as a SIGSTOP would, while it goes on serving its tables (tests).
func (c *Cluster) Pause(paused bool) { c.node.paused.Store(paused) }

// Claim takes a table for this node and starts it (start): its epoch is
// the claim's, its state the log's. A server that is no node starts it
// unfenced (epoch 0).
func (c *Cluster) Claim(ctx context.Context, id int64, start func(epoch int64) error) error {
	if c.node == nil {
		return start(0)
	}
	self := c.SelfID()
	epoch, err := c.Store.Claim(ctx, self, id)
	if err != nil {
		return err
	}
	if err := start(epoch); err != nil {
		// Free it for another node (its log is what it is; the others
		// will say the same, and the table waits for an operator).
		c.Store.Release(context.WithoutCancel(ctx), self, id, epoch)
		return err
	}
	c.Metrics.claims.Inc()
	return nil
}

// Created starts a table the store has just created: owned by this node
// from its creation (Owner: SelfID, epoch 1), so that another node's scan
// cannot claim it before this one does; claimed as any other where the
// server is no node.
func (c *Cluster) Created(ctx context.Context, t *sabot.Table, start func(epoch int64) error) error {
	if t.Owner == "" {
		return c.Claim(ctx, t.ID, start)
	}
	if err := start(1); err != nil {
		c.Store.Release(context.WithoutCancel(ctx), t.Owner, t.ID, 1)
		return err
	}
	c.Metrics.claims.Inc()
	return nil
}

// Moved takes a table off the node once its actor has stopped for another
// node: fenced (another node owns it already) or handed over (its lease is
// released for another to claim).
func (c *Cluster) Moved(id, epoch int64, fenced bool) {
	if fenced {
		c.Metrics.leaseLost.Inc()
		c.logger().Warn("table lost to another node", "table", id, "epoch", epoch)
		return
	}
	c.Metrics.handedOver.Inc()
	if c.node != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.Store.Release(ctx, c.SelfID(), id, epoch); err != nil {
			c.logger().Warn("a table handed over was not released: it is free when the lease expires", "table", id, "err", err)
		}
	}
	c.logger().Info("table handed over", "table", id)
	if c.node != nil {
		c.node.mu.Lock()
		c.node.refresh = time.Time{} // read the leases at once
		c.node.mu.Unlock()
	}
}

// Run renews the node's lease (every Lease/4) and, apart, shares the
// tables out (every Lease/8), until ctx is done: a scan that takes long
// (many tables to rebuild after a node died) never delays a renewal.
func (c *Cluster) Run(ctx context.Context) {
	n := c.node
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
	wg.Go(func() { every(n.lease/4, func() { c.renew(ctx) }) })
	wg.Go(func() {
		every(n.lease/8, func() {
			if err := c.ShareOut(ctx); err != nil && ctx.Err() == nil {
				c.logger().Warn("the tables were not shared out", "err", err)
			}
		})
	})
	wg.Wait()
}

// renew renews the node's lease. Lost (expired, or out of reach for longer
// than the lease), the node drops every table and joins again.
func (c *Cluster) renew(ctx context.Context) {
	n := c.node
	n.mu.Lock()
	self := n.self
	n.mu.Unlock()
	rctx, cancel := context.WithTimeout(ctx, n.lease/2)
	err := c.Store.Renew(rctx, self.ID, n.lease)
	cancel()
	n.mu.Lock()
	if err == nil {
		n.renewed = c.now()
	}
	since := c.now().Sub(n.renewed)
	late := since > n.lease
	unanswered := since > n.lease/2
	n.mu.Unlock()
	switch {
	case err == nil || errors.Is(err, sabot.ErrLeaseLost):
		c.reached(true, nil)
	case unanswered && ctx.Err() == nil:
		c.reached(false, err)
	}
	if err == nil {
		c.Metrics.renewals.Inc()
		return
	}
	if ctx.Err() != nil || !errors.Is(err, sabot.ErrLeaseLost) && !late {
		c.logger().Warn("lease not renewed", "node", self.ID, "err", err)
		return
	}
	c.logger().Error("the node's lease is lost: its tables are dropped, it joins again", "node", self.ID, "err", err)
	c.Tables.Fence(ctx)
	if !errors.Is(err, sabot.ErrLeaseLost) {
		return // out of reach: try again at the next renewal, which fails
	}
	again := sabot.Node{ID: NodeID(), URL: self.URL}
	if err := c.Store.Join(ctx, &again, n.lease); err != nil {
		c.logger().Error("the node could not join again", "err", err)
		return
	}
	n.mu.Lock()
	n.self, n.renewed = again, c.now()
	n.mu.Unlock()
	c.logger().Info("node joined again", "node", again.ID)
}

// readLeases reads the nodes and the leases into the directory.
func (c *Cluster) readLeases(ctx context.Context) ([]sabot.Lease, []sabot.Node, error) {
	n := c.node
	ns, err := c.Store.Nodes(ctx)
	if err != nil {
		return nil, nil, err
	}
	ls, err := c.Store.Leases(ctx)
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
				hosts[HostOf(ip.String())] = true
			} else if ips, err := net.DefaultResolver.LookupHost(ctx, u.Hostname()); err == nil {
				for _, ip := range ips {
					hosts[HostOf(ip)] = true
				}
			}
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.refresh = c.now()
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

// ShareOut reads the leases, reports the nodes lost, claims the free tables
// while the node owns fewer than its share, and hands over what it owns
// beyond it while another owns less.
func (c *Cluster) ShareOut(ctx context.Context) error {
	n := c.node
	ls, ns, err := c.readLeases(ctx)
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
			if lost, err := c.Store.NodeLost(ctx, o.ID); err == nil && lost {
				held := 0
				for _, l := range ls {
					if l.Node == o.ID {
						held++
					}
				}
				c.Metrics.nodesLost.Inc()
				c.logger().Warn("node lost", "node", o.ID, "url", o.URL, "tables", held)
				c.Tables.NodeLost(ctx, o, held)
			}
		}
	}
	c.Metrics.nodes.Set(float64(sharing))
	if draining || sharing == 0 {
		return nil
	}
	var free []sabot.Lease
	for _, l := range ls {
		if l.Live {
			owned[l.Node]++
			continue
		}
		if c.Tables.Serves(l.TableID) {
			continue // stopping here
		}
		free = append(free, l)
	}
	share := (len(ls) + sharing - 1) / sharing
	mine := c.Tables.Served()
	seen := map[int64]int{}
	rand.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	for _, l := range free {
		n.mu.Lock()
		seen[l.TableID] = n.free[l.TableID] + 1
		until := n.broken[l.TableID]
		n.mu.Unlock()
		// A table free for three scans is taken by anyone: its fair
		// owner is slow, or the shares are rounded against it.
		if mine >= share && seen[l.TableID] < 3 || c.now().Before(until) {
			continue
		}
		t, err := c.Tables.Table(ctx, l.TableID)
		if err != nil {
			return err
		}
		var prev *sabot.Node
		for _, o := range ns {
			if o.ID == l.Node {
				prev = &o
			}
		}
		if err := c.Claim(ctx, t.ID, func(epoch int64) error { return c.Tables.Start(t, epoch) }); err != nil {
			if code := sabot.ErrorCode(err); code != sabot.ECONFLICT && code != sabot.EUNAVAILABLE && !errors.Is(err, sabot.ErrLeaseLost) {
				c.logger().Error("a table could not be taken over: left for a minute", "table", t.ID, "err", err)
				n.mu.Lock()
				n.broken[t.ID] = c.now().Add(brokenWait)
				n.mu.Unlock()
			}
			continue
		}
		mine++
		delete(seen, l.TableID)
		if prev != nil && !prev.Left {
			// A node's tables taken over after it died: from its last
			// renewal to the table serving again.
			c.Metrics.failover.Observe(c.now().Sub(prev.Renewed).Seconds())
		}
		c.logger().Info("table claimed", "table", t.ID, "from", l.Node)
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
		c.Tables.HandOver(excess)
	}
	return nil
}

// Eldest reports whether this node is the first of the live nodes to have
// joined (a node alone on its store always is): of several nodes started
// at once on an empty store, one opens the default tables.
func (c *Cluster) Eldest(ctx context.Context) bool {
	if c.node == nil || !c.Shared {
		return true
	}
	ns, err := c.Store.Nodes(ctx)
	if err != nil {
		return false
	}
	self := c.SelfID()
	for _, n := range ns { // in the order they joined
		if n.Live {
			return n.ID == self
		}
	}
	return false
}
