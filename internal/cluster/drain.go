package cluster

import (
	"context"
	"time"
)

// A node that stops hands its tables over between rounds (Drain), then
// leaves: its tables are free at once.

// Draining reports whether the node is handing its tables over to stop.
func (c *Cluster) Draining() bool {
	if c.node == nil {
		return false
	}
	c.node.mu.Lock()
	defer c.node.mu.Unlock()
	return c.node.draining
}

// Drain hands every table this node serves over to the other nodes,
// between rounds, and returns when none is left or ctx is done (a round
// that does not end in time is suspended by the server's Close and resumed
// by the node that claims the table). A node alone on its store has nobody
// to hand to: Drain returns at once.
func (c *Cluster) Drain(ctx context.Context) error {
	if c.node == nil || !c.Shared {
		return nil
	}
	n := c.node
	n.mu.Lock()
	n.draining = true
	self := n.self.ID
	n.mu.Unlock()
	if err := c.Store.Drain(ctx, self); err != nil {
		return err
	}
	c.logger().Info("draining: the tables are handed over between rounds", "tables", c.Tables.Served())
	c.Tables.HandOver(-1)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for i := 0; c.Tables.Served() > 0; i++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		if i%10 == 9 && !c.othersShare(ctx) {
			// Nobody to take them (the last node, or every node
			// stopping at once): Close suspends what is left.
			return nil
		}
	}
	return nil
}

// othersShare reports whether another live node takes tables.
func (c *Cluster) othersShare(ctx context.Context) bool {
	ns, err := c.Store.Nodes(ctx)
	if err != nil {
		return true
	}
	self := c.SelfID()
	for _, n := range ns {
		if n.Live && !n.Draining && n.ID != self {
			return true
		}
	}
	return false
}

// Leave ends the node's lease as the server closes: its tables (suspended
// already) are free at once.
func (c *Cluster) Leave() {
	if c.node == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Store.Leave(ctx, c.SelfID()); err != nil {
		c.logger().Warn("the node did not leave: its tables are free when its lease expires", "err", err)
	}
}
