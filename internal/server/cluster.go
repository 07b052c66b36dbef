package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/cluster"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
)

// Several nodes on one store: the cluster is its own package
// (internal/cluster: the node registry and its leases, fencing, sharing
// out and the drain, forwarding, revocations, the reach of the database).
// Here are the server's tables as the cluster asks for them, and the table
// actor's part: the epoch of its lease, which every append carries
// (actor.write), its hand-over between rounds and its fence.

// initCluster gives the cluster the store's capabilities, the settings and
// the server's tables.
func (s *Server) initCluster() {
	c := &s.cluster
	c.Store, _ = s.Store.(sabot.Cluster)
	c.Revoker, _ = s.Store.(sabot.Revoker)
	c.Shared, c.Lease = s.Shared, s.Lease
	if s.SeedKey != nil {
		c.Key = s.SeedKey.NodeKey()
	}
	c.Tables = clusterTables{s}
	c.WriteError = s.writeError
	c.Authenticate = func(r *http.Request) error { // before a body is read for another node
		_, _, err := s.authenticate(r, false)
		return err
	}
	c.Logger = s.logger()
	c.Metrics = s.metrics.cluster
}

// join makes the server a node of its store's cluster, if the store is one.
func (s *Server) join(ctx context.Context) error {
	return s.cluster.Join(ctx, cluster.Advertise(s.Advertise, s.ln.Addr().(*net.TCPAddr)))
}

// claim takes a table for this node and starts it: its epoch is the
// lease's, its state the log's.
func (s *Server) claim(ctx context.Context, t *sabot.Table) (a *actor.Table, err error) {
	err = s.cluster.Claim(ctx, t.ID, func(epoch int64) (err error) {
		a, err = s.startTable(t, epoch)
		return err
	})
	return a, err
}

// moved takes a table's actor off the node once it has stopped for another
// node (actor.run): fenced (another node owns it already) or handed over
// (its lease is released for another to claim).
func (s *Server) moved(a *actor.Table) {
	s.mu.Lock()
	if s.tables[a.ID()] == a {
		delete(s.tables, a.ID())
	}
	s.mu.Unlock()
	s.metrics.tables.Dec()
	epoch, fenced := a.Fenced()
	s.cluster.Moved(a.ID(), epoch, fenced)
}

// Drain hands every table this node serves over to the other nodes,
// between rounds, and returns when none is left or ctx is done (a round
// that does not end in time is suspended by Close and resumed by the node
// that claims the table). A node alone on its store has nobody to hand to:
// Drain returns at once.
func (s *Server) Drain(ctx context.Context) error { return s.cluster.Drain(ctx) }

// Eldest reports whether this node is the first of the live nodes to have
// joined (a node alone on its store always is): of several nodes started
// at once on an empty store, one opens the default tables.
func (s *Server) Eldest(ctx context.Context) bool { return s.cluster.Eldest(ctx) }

// clientAddr is the address a request comes from: the client's that a
// node signed, else the connection's.
func (s *Server) clientAddr(r *http.Request) string { return cluster.ClientAddr(r) }

// lobby returns every table's view: this node's, and those the other live
// nodes return for theirs.
func (s *Server) lobby(ctx context.Context, r *http.Request) []*wire.TableView {
	return cluster.Lobby(ctx, &s.cluster, r, s.localViews(ctx), func(v *wire.TableView) int64 { return v.ID })
}

// clusterTables are the server's tables as the cluster asks for them.
type clusterTables struct{ s *Server }

func (t clusterTables) Start(tb *sabot.Table, epoch int64) error {
	_, err := t.s.startTable(tb, epoch)
	return err
}

func (t clusterTables) Serves(id int64) bool {
	_, err := t.s.table(id)
	return err == nil
}

func (t clusterTables) Served() int { return len(t.s.tableList()) }

func (t clusterTables) HandOver(n int) {
	for _, a := range t.s.tableList() {
		if n == 0 {
			break
		}
		if !a.HandingOver() {
			a.HandOver()
			n--
		}
	}
}

func (t clusterTables) Fence(ctx context.Context) {
	for _, a := range t.s.tableList() {
		fctx, cancel := context.WithTimeout(ctx, time.Second) // one stuck in a write is fenced by the store anyway
		a.Fence(fctx)
		cancel()
	}
}

func (t clusterTables) Table(ctx context.Context, id int64) (*sabot.Table, error) {
	return t.s.Store.TableByID(ctx, id)
}

func (t clusterTables) NodeLost(ctx context.Context, o sabot.Node, held int) {
	t.s.event(ctx, nil, tablelog.NodeLost{Node: o.ID, URL: o.URL, Tables: held, At: o.Renewed.UTC().Format(time.RFC3339Nano),
		Text: fmt.Sprintf("node %s (%s) stopped renewing its lease at %s holding %d tables: they are taken over", o.ID, o.URL, o.Renewed.Format(time.RFC3339Nano), held)}, nil, "")
}
