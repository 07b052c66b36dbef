package cluster

import (
	"context"
	"fmt"
	"sync"

	"sabot"
)

// A session's end and a player's exclusion hold on every node
// (docs/players.md). Two halves, both the database's:
//
//   - The stake's transaction reads the player's eligibility (the server's
//     stakeGuard, sabot.StakeGuard): a stake from a session that is over,
//     or of a player excluded, is refused on any node from the commit that
//     ended it, whatever a node has heard.
//   - The node that ends a session or excludes a player tells the others
//     through the store (sabot.Revoker; PostgreSQL: NOTIFY): each closes
//     the sockets it holds of him and, when he may no longer play (an
//     exclusion, or his last session ended), takes him off the tables it
//     serves, his bets for the next round returned. A node whose watch
//     broke checks every socket it holds when it listens again.
//
// A new way of ending a session or of barring a player (a pit's block, a
// password change) calls Revoke after its change commits.

// revokeOrigin names this process; a server is told apart by its address.
// It is made on first use: a command that never revokes reads no host name
// and no random bytes at start-up.
var revokeOrigin = sync.OnceValue(NodeID)

func (c *Cluster) origin() string { return fmt.Sprintf("%s/%p", revokeOrigin(), c) }

// Revoke applies a revocation here (apply), then tells the other nodes.
func (c *Cluster) Revoke(ctx context.Context, r sabot.Revocation, apply func(sabot.Revocation)) {
	r.Origin = c.origin()
	apply(r)
	if c.Revoker != nil {
		if err := c.Revoker.Revoke(context.WithoutCancel(ctx), r); err != nil {
			// The stakes are refused anyway (stakeGuard); the other nodes'
			// sockets close at their next check.
			c.logger().Warn("a revocation was not sent to the other nodes", "user", r.UserID, "err", err)
		}
	}
}

// WatchRevocations applies (apply) the revocations the other nodes make,
// until ctx is done; it returns at once where there is no Revoker.
func (c *Cluster) WatchRevocations(ctx context.Context, apply func(sabot.Revocation)) {
	if c.Revoker == nil {
		return
	}
	err := c.Revoker.WatchRevocations(ctx, func(r sabot.Revocation) {
		if r.Origin == c.origin() {
			return // applied already
		}
		apply(r)
	})
	if err != nil && ctx.Err() == nil {
		c.logger().Error("the watch of revocations ended", "err", err)
	}
}
