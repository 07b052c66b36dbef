package sabot

import (
	"context"
	"time"
)

// Cluster is a Store that several nodes (`sabot serve` processes) share:
// each node holds a lease that it renews, each table is owned by one node
// at a time under an epoch, and an append carrying an epoch that is no
// longer its table's is refused in the append's own transaction
// (ErrFenced). The lease times are the database's clock, not the nodes'.
type Cluster interface {
	// Join registers a node (ID and URL set; Started and Expires are set
	// from the database's clock), its lease lasting ttl.
	Join(ctx context.Context, n *Node, ttl time.Duration) error
	// Renew extends a node's lease by ttl from now. ErrLeaseLost if it had
	// expired or the node left: the node owns nothing any more (another
	// may have claimed its tables) and must join again as a new node.
	Renew(ctx context.Context, node string, ttl time.Duration) error
	// Drain marks a node as handing its tables over: the others no longer
	// count it when they share the tables out.
	Drain(ctx context.Context, node string) error
	// Leave ends a node's lease and frees its tables at once.
	Leave(ctx context.Context, node string) error
	// Claim makes a live node the owner of a table that has no owner or
	// whose owner's lease has expired, under the next epoch, which it
	// returns; ECONFLICT if a live node owns it, ErrLeaseLost if the
	// claimant's own lease has expired.
	Claim(ctx context.Context, node string, table int64) (epoch int64, err error)
	// Release frees a table that node owns at that epoch, so that another
	// may claim it at once (ECONFLICT if it does not own it).
	Release(ctx context.Context, node string, table, epoch int64) error
	// Nodes lists the nodes that have joined, live or not, and Leases
	// every served table's owner, as the database's clock sees them.
	Nodes(ctx context.Context) ([]Node, error)
	Leases(ctx context.Context) ([]Lease, error)
	// NodeLost marks a node whose lease expired as lost: true for exactly
	// one caller, the one that reports the loss.
	NodeLost(ctx context.Context, node string) (bool, error)
}

// Node is one `sabot serve` process of a cluster.
type Node struct {
	ID       string
	URL      string // where the other nodes reach it
	Started  time.Time
	Renewed  time.Time // the last renewal of its lease
	Expires  time.Time
	Live     bool // its lease had not expired when it was read
	Draining bool // it hands its tables over (a shutdown under way)
	Left     bool // it left (a shutdown), its tables freed
	Lost     bool // its lease expired while it held it (a crash, a pause)
}

// Lease is a table's owner (Node "" for none) and epoch.
type Lease struct {
	TableID int64
	Node    string
	Epoch   int64
	Live    bool // its owner's lease had not expired when it was read
}
