package cluster

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"sabot"
)

// A node cut off from its database can serve nothing: every table's
// command writes to it, and forwarding reads the leases from it (such a node
// hung every request for every table while /healthz
// said 200). A node of several on PostgreSQL knows the database is out of
// reach when its lease's renewal (every Lease/4) has not succeeded for
// Lease/2: from then until a renewal succeeds again it answers every API
// request at once with 503 `unavailable` and Retry-After, cuts the requests
// in flight that wait on the database (the same answer), and fails its
// readiness (/readyz) so that a load balancer sends its clients to the
// other nodes. /healthz stays the liveness: the process serves.

// ErrDBUnreachable is the cause of a request cut because the node lost its
// database.
var ErrDBUnreachable = errors.New("this node cannot reach the database")

// UnreachableRetry is the Retry-After of the node's refusals meanwhile.
const UnreachableRetry = 2 * time.Second

// reach is whether the node reaches its database, as its renewals say.
type reach struct {
	mu     sync.Mutex
	down   bool
	since  time.Time
	ctx    context.Context // cancelled when the database goes out of reach
	cancel context.CancelFunc
}

// dbContext is done once the database goes out of reach (a fresh one after
// it comes back).
func (c *Cluster) dbContext() context.Context {
	r := &c.reach
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx == nil {
		r.ctx, r.cancel = context.WithCancel(context.Background())
	}
	return r.ctx
}

// Unreachable reports whether the node cannot reach its database now.
func (c *Cluster) Unreachable() bool {
	c.reach.mu.Lock()
	defer c.reach.mu.Unlock()
	return c.reach.down
}

// reached records what a renewal found: the database answered (ok), or it
// did not (err) and nothing has answered since the last success at last.
func (c *Cluster) reached(ok bool, err error) {
	c.dbContext() // made
	r := &c.reach
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case ok && r.down:
		r.down = false
		r.ctx, r.cancel = context.WithCancel(context.Background())
		c.logger().Info("the database answers again: the node serves", "after", c.now().Sub(r.since).Round(time.Millisecond))
	case !ok && !r.down:
		r.down, r.since = true, c.now()
		r.cancel()
		c.logger().Error("the database does not answer: the node refuses requests (503) and is not ready until it does", "err", err)
	}
}

// refuseUnreachable answers an API request at once while the node cannot
// reach its database, and returns true; else it returns the request with a
// context cut when the database goes out of reach (not a WebSocket's: a
// socket lives on its table's actor, which the lease decides).
func (c *Cluster) refuseUnreachable(w http.ResponseWriter, r *http.Request) (*http.Request, func(), bool) {
	if c.node == nil || !c.Shared || !strings.HasPrefix(r.URL.Path, "/api/") {
		return r, func() {}, false
	}
	if c.Unreachable() {
		c.WriteError(w, r, UnreachableError())
		return r, func() {}, true
	}
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return r, func() {}, false
	}
	ctx, cancel := context.WithCancelCause(r.Context())
	stop := context.AfterFunc(c.dbContext(), func() { cancel(ErrDBUnreachable) })
	return r.WithContext(ctx), func() {
		stop()
		cancel(nil)
	}, false
}

// UnreachableError is the refusal of a request while the node cannot reach
// its database, or cut because it lost it (its cause ErrDBUnreachable).
func UnreachableError() error {
	return &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: UnreachableRetry, Cause: ErrDBUnreachable,
		Message: "this node cannot reach the database: try again, or another node"}
}
