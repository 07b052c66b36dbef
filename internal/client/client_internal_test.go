package client

import (
	"context"
	"io"
	"testing"

	"sabot"
)

// A client moving on from a node passes over one that failed a moment ago
// (a stopped node takes connections and answers nothing: each try costs a
// dial timeout), unless every node has.
func TestFailoverPassesOverFailedNode(t *testing.T) {
	c := &Client{URL: "http://a,http://b,http://c"}
	c.failover() // a fails
	if got := c.base(); got != "http://b" {
		t.Fatalf("after a failed: %s", got)
	}
	c.cur.Store(2) // at c
	c.failover()   // c fails: a failed a moment ago, b did not
	if got := c.base(); got != "http://b" {
		t.Fatalf("after c failed: %s, not b", got)
	}
	c.failover() // b fails too: every node has, the next in turn
	if got := c.base(); got != "http://c" {
		t.Fatalf("after all failed: %s", got)
	}
}

// The bots' setup rides out a server that restarts: a step whose
// connection was cut (io.EOF) or that was answered unavailable is tried
// again; a refusal is final at once.
func TestBotsSetupRidesOutARestart(t *testing.T) {
	ctx := context.Background()
	fails := []error{io.EOF, &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "not ready: the server is still starting"}}
	n := 0
	err := setup(ctx, func() error {
		n++
		if n <= len(fails) {
			return fails[n-1]
		}
		return nil
	})
	if err != nil || n != 3 {
		t.Fatalf("setup after a cut and a 503: %v after %d tries; want success on the third", err, n)
	}
	n = 0
	err = setup(ctx, func() error { n++; return sabot.Errorf(sabot.ECONFLICT, "the name is taken") })
	if sabot.ErrorCode(err) != sabot.ECONFLICT || n != 1 {
		t.Fatalf("a refusal: %v after %d tries; want it at once", err, n)
	}
}
