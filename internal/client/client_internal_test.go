package client

import "testing"

// A client moving on from a node passes over one that failed a moment ago
// (a stopped node takes connections and answers nothing: each try costs a
// dial timeout), unless every node has (issue 25, item 10).
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
