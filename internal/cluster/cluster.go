// Package cluster is the table server's part in a cluster: several `sabot
// serve` processes on one database. It holds the node registry
// and its lease loop, table leases and their epochs, the sharing out of the
// tables (node.go) and the drain (drain.go); each table's hold on its
// lease, which its actor keeps (Fence, fence.go); the forwarding of a
// request or a WebSocket to a table's owner under a signed node header
// (forward.go) and the lobby of every node's tables (lobby.go); the watch
// of revocations made on other nodes (revoke.go); and the node's reach of
// its database (reach.go).
//
// It takes the store's cluster capabilities (sabot.Cluster, sabot.Revoker),
// not the store, and asks the server for what only the server has through
// Tables: start a table claimed here, the tables served, hand them over or
// fence them.
package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"sabot"
)

// Tables is what the cluster asks of the server's table actors.
type Tables interface {
	// Start rebuilds a table from its log under the epoch of its claim
	// and serves it.
	Start(t *sabot.Table, epoch int64) error
	// Serves reports whether this node serves a table now.
	Serves(id int64) bool
	// Served is how many tables this node serves now.
	Served() int
	// HandOver asks up to n of the tables served (every one: n < 0) that
	// have not been asked already to stop between rounds for another node.
	HandOver(n int)
	// Fence stops every table served after the step in hand: the node's
	// lease is lost, another node may own them already.
	Fence(ctx context.Context)
	// Table reads a table's row from the store.
	Table(ctx context.Context, id int64) (*sabot.Table, error)
	// NodeLost records, as a significant event, a node lost holding tables.
	NodeLost(ctx context.Context, n sabot.Node, tables int)
}

// Cluster is a node's part in its cluster. Set the exported fields before
// Join; its zero value is a server that is no node (its store is not a
// sabot.Cluster, or it has not joined): every request is its own.
type Cluster struct {
	// Store is the store's cluster capability (nil: the store is not a
	// cluster: the server serves every table, unfenced).
	Store sabot.Cluster
	// Revoker tells the other nodes of a revocation (nil: nobody to tell).
	Revoker sabot.Revoker
	// Shared: other processes serve the same store, the tables are shared
	// out and requests for a table another node owns are forwarded to it;
	// false: this process is the store's only one.
	Shared bool
	// Lease is how long a node's lease lasts unrenewed (0: DefaultLease).
	Lease time.Duration
	// Key authenticates what one node tells another: derived from the seed
	// key the nodes share (nil: no node header is trusted).
	Key []byte
	// Tables are the server's tables.
	Tables Tables
	// WriteError answers a request refused here, as the server answers
	// its own.
	WriteError func(w http.ResponseWriter, r *http.Request, err error)
	// Authenticate checks the session of a request with a body before it
	// is forwarded to another node, its body unread (nil: not checked
	// here; the owner does).
	Authenticate func(r *http.Request) error
	Logger       *slog.Logger // nil: discard
	Metrics      *Metrics
	// Now is the clock of the node's leases: its last renewal, the tables
	// left after failing to load, its reach of the database (nil:
	// time.Now). The renewals and the scans tick on the runtime's timers,
	// which testing/synctest makes a bubble's; a test whose store leaves
	// the bubble sets Now to the clock it moves.
	Now func() time.Time

	node   *node      // nil: not a node (Join)
	nonces nonceCache // the node headers taken
	reach  reach      // whether the node reaches its database
	lobby  lobbyCache
}

func (c *Cluster) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cluster) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Logger
}

// Joined reports whether the server is a node of its store's cluster.
func (c *Cluster) Joined() bool { return c.node != nil }

// Metrics are the cluster's Prometheus metrics, which the server registers.
type Metrics struct {
	nodes      prometheus.Gauge
	claims     prometheus.Counter
	renewals   prometheus.Counter
	leaseLost  prometheus.Counter
	handedOver prometheus.Counter
	nodesLost  prometheus.Counter
	failover   prometheus.Histogram
	forwarded  *prometheus.CounterVec // kind: http, websocket, lobby
}

// NewMetrics makes the cluster's metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		nodes: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sabot_nodes",
			Help: "Nodes sharing the tables (live, not draining), as this node last read them."}),
		claims: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_table_claims_total",
			Help: "Tables this node claimed (at its start, from a node that died or handed them over, or created here)."}),
		renewals: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_lease_renewals_total", Help: "Renewals of this node's lease."}),
		leaseLost: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_lease_lost_total",
			Help: "Tables this node dropped because another node owns them now: an append refused under an old epoch, or its own lease expired."}),
		handedOver: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_tables_handed_over_total",
			Help: "Tables this node handed over to another between rounds (balance, drain)."}),
		nodesLost: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_nodes_lost_total",
			Help: "Nodes whose lease expired while they held it, reported by this node."}),
		failover: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sabot_failover_seconds",
			Help:    "From a dead node's last lease renewal to one of its tables serving again here.",
			Buckets: []float64{.5, 1, 2, 3, 4, 5, 6, 8, 10, 15, 30}}),
		forwarded: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sabot_forwarded_total",
			Help: "Requests forwarded to the node that owns their table, by kind: http, websocket; lobby: the other nodes asked for their tables."}, []string{"kind"}),
	}
}

// Collectors are the metrics to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.nodes, m.claims, m.renewals, m.leaseLost, m.handedOver, m.nodesLost, m.failover, m.forwarded}
}

func randomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
