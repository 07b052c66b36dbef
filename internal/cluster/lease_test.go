package cluster

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"sabot"
)

// The node's lease loop on a fake clock (testing/synctest): the node, its
// renewals' and scans' tickers and the store in memory are all in the
// bubble, so a time.Sleep moves the fake clock on at once and
// synctest.Wait waits until the node has done all it does at that moment.
// Each moment is checked on both sides: a millisecond before it nothing
// has happened, at it the node acts. No test here waits in real time.

// running starts the node's lease loop (Run) in the bubble until the test
// ends.
func running(t *testing.T, c *Cluster) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// at moves the bubble's clock on to d after start and waits for the node.
func at(start time.Time, d time.Duration) {
	time.Sleep(time.Until(start.Add(d)))
	synctest.Wait()
}

func (f *fakeStore) renewed() int { f.mu.Lock(); defer f.mu.Unlock(); return f.renewals }
func (t *fakeTables) wasFenced() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fenced
}
func (t *fakeTables) started() int { t.mu.Lock(); defer t.mu.Unlock(); return t.starts }

// A node renews its lease every quarter of it, and no sooner.
func TestLeaseRenewedEveryQuarter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeStore{}
		n := newNode(t, f, &fakeTables{served: map[int64]bool{}, lost: map[string]int{}})
		start := time.Now()
		running(t, n)
		quarter := n.LeaseTime() / 4
		for k := 1; k <= 8; k++ {
			at(start, time.Duration(k)*quarter-time.Millisecond)
			if got := f.renewed(); got != k-1 {
				t.Fatalf("a millisecond before renewal %d: %d renewals", k, got)
			}
			at(start, time.Duration(k)*quarter)
			if got := f.renewed(); got != k {
				t.Fatalf("at renewal %d (%v): %d renewals", k, time.Duration(k)*quarter, got)
			}
		}
		if n.Unreachable() {
			t.Error("a node whose renewals succeed is out of reach")
		}
	})
}

// A node whose renewals fail is out of reach once nothing has answered for
// more than half its lease (the renewal at three quarters), not at half;
// past its lease (the renewal at five quarters) it fences its tables, and
// it stays the same node (the database did not say the lease was lost).
// A renewal that succeeds again serves again.
func TestLeaseUnansweredRenewals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeStore{renew: errors.New("connection refused")}
		tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
		n := newNode(t, f, tables)
		self := n.SelfID()
		start := time.Now()
		running(t, n)
		lease := n.LeaseTime()
		at(start, lease/2)
		if n.Unreachable() {
			t.Fatal("out of reach after half the lease unanswered (not more)")
		}
		at(start, lease*3/4)
		if !n.Unreachable() {
			t.Fatal("reachable after three quarters of the lease unanswered")
		}
		at(start, lease)
		if tables.wasFenced() {
			t.Fatal("the tables were fenced with the lease not yet past")
		}
		at(start, lease*5/4)
		if !tables.wasFenced() {
			t.Fatal("the tables were not fenced past the lease")
		}
		if n.SelfID() != self {
			t.Errorf("joined again as %q: only a lease the database says is lost is", n.SelfID())
		}
		f.mu.Lock()
		f.renew = nil
		f.mu.Unlock()
		at(start, lease*6/4)
		if n.Unreachable() {
			t.Error("the renewal succeeded, the node is still out of reach")
		}
	})
}

// A renewal the database answers with the lease lost fences the tables at
// once and joins again as a new node, which renews on.
func TestLeaseLostJoinsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeStore{renew: sabot.ErrLeaseLost}
		tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
		n := newNode(t, f, tables)
		first := n.SelfID()
		start := time.Now()
		running(t, n)
		quarter := n.LeaseTime() / 4
		at(start, quarter-time.Millisecond)
		if tables.wasFenced() {
			t.Fatal("fenced before the first renewal")
		}
		at(start, quarter)
		if !tables.wasFenced() {
			t.Fatal("the lost lease did not fence the tables")
		}
		again := n.SelfID()
		if again == first {
			t.Fatal("the node did not join again")
		}
		f.mu.Lock()
		f.renew = nil
		f.mu.Unlock()
		at(start, 2*quarter)
		if n.SelfID() != again || n.Unreachable() {
			t.Errorf("after the new node's renewal: %q, out of reach %v", n.SelfID(), n.Unreachable())
		}
	})
}

// A table that fails to load here is claimed at the first scan, then left
// for a minute (brokenWait) and claimed again at the first scan after it,
// not before.
func TestLeaseBrokenTableLeftAMinute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeStore{leases: freeLeases(1)}
		tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}, startFail: errors.New("its log does not replay")}
		n := newNode(t, f, tables)
		start := time.Now()
		running(t, n)
		scan := n.LeaseTime() / 8
		at(start, scan-time.Millisecond)
		if got := tables.started(); got != 0 {
			t.Fatalf("a millisecond before the first scan: %d starts", got)
		}
		at(start, scan)
		if got := tables.started(); got != 1 {
			t.Fatalf("at the first scan: %d starts, want 1", got)
		}
		at(start, scan+brokenWait-time.Millisecond)
		if got := tables.started(); got != 1 {
			t.Fatalf("within the minute: %d starts, want 1 (the broken table was tried again)", got)
		}
		at(start, scan+brokenWait)
		if got := tables.started(); got != 2 {
			t.Fatalf("at the minute's scan: %d starts, want 2", got)
		}
	})
}

// A paused node (Pause: as if stopped) neither renews nor scans; resumed,
// it does both at the next ticks.
func TestLeasePaused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeStore{leases: freeLeases(1)}
		tables := &fakeTables{served: map[int64]bool{}, lost: map[string]int{}}
		n := newNode(t, f, tables)
		n.Pause(true)
		start := time.Now()
		running(t, n)
		lease := n.LeaseTime()
		at(start, 2*lease)
		if f.renewed() != 0 || tables.started() != 0 {
			t.Fatalf("paused: %d renewals, %d tables started", f.renewed(), tables.started())
		}
		n.Pause(false)
		at(start, 2*lease+lease/8)
		if tables.started() != 1 || f.renewed() != 0 {
			t.Fatalf("resumed, at the next scan: %d tables started, %d renewals", tables.started(), f.renewed())
		}
		at(start, 2*lease+lease/4)
		if f.renewed() != 1 {
			t.Fatalf("resumed, at the next renewal: %d renewals", f.renewed())
		}
	})
}
