package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"sabot"
)

// The cluster's leases and fencing (sabot.Cluster).

func cluster(t *testing.T, s sabot.Store) sabot.Cluster {
	t.Helper()
	c, ok := s.(sabot.Cluster)
	if !ok {
		t.Fatalf("%T is not a sabot.Cluster", s)
	}
	return c
}

func join(t *testing.T, c sabot.Cluster, id string, ttl time.Duration) {
	t.Helper()
	n := &sabot.Node{ID: id, URL: "http://" + id}
	must(t, c.Join(context.Background(), n, ttl))
	if !n.Live || !n.Expires.After(n.Started) {
		t.Fatalf("joined: %+v", n)
	}
}

func fenced(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, sabot.ErrFenced) || sabot.ErrorCode(err) != sabot.EUNAVAILABLE {
		t.Fatalf("an append under an old epoch: %v, want ErrFenced (unavailable)", err)
	}
}

// A table has one owner at a time; appends carry its epoch and others are
// refused with nothing written; 0 is unfenced.
func testClusterClaim(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := cluster(t, s)
	join(t, c, "a", time.Minute)
	join(t, c, "b", time.Minute)
	code(t, c.Join(ctx, &sabot.Node{ID: "a"}, time.Minute), sabot.ECONFLICT)
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	_, err := c.Claim(ctx, "a", tbl.ID+100)
	code(t, err, sabot.ENOTFOUND)
	epoch, err := c.Claim(ctx, "a", tbl.ID)
	must(t, err)
	if epoch != 1 {
		t.Fatalf("first claim: epoch %d", epoch)
	}
	_, err = c.Claim(ctx, "b", tbl.ID)
	code(t, err, sabot.ECONFLICT)
	ls, err := c.Leases(ctx)
	must(t, err)
	if len(ls) != 1 || ls[0] != (sabot.Lease{TableID: tbl.ID, Node: "a", Epoch: 1, Live: true}) {
		t.Fatalf("leases: %+v", ls)
	}
	rec := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogTableOpened, Epoch: 1}
	_, err = s.Append(ctx, sabot.Appending(rec), nil)
	must(t, err)
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAdmin, Epoch: 2}}, nil)
	fenced(t, err)
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAdmin}}, nil) // unfenced
	must(t, err)
	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if len(log) != 2 || log[0].Epoch != 1 || log[1].Epoch != 0 || log[1].Seq != 2 {
		t.Fatalf("log after a refused append: %+v", log)
	}

	// Released: free at once, under the next epoch.
	code(t, c.Release(ctx, "b", tbl.ID, 1), sabot.ECONFLICT)
	must(t, c.Release(ctx, "a", tbl.ID, 1))
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAdmin, Epoch: 1}}, nil)
	fenced(t, err)
	epoch, err = c.Claim(ctx, "b", tbl.ID)
	must(t, err)
	if epoch != 3 {
		t.Fatalf("claim after a release: epoch %d, want 3", epoch)
	}
	// A node that leaves frees its tables.
	must(t, c.Leave(ctx, "b"))
	code(t, c.Renew(ctx, "b", time.Minute), sabot.EUNAVAILABLE)
	ls, err = c.Leases(ctx)
	must(t, err)
	if ls[0].Node != "" || ls[0].Epoch != 4 || ls[0].Live {
		t.Fatalf("after b left: %+v", ls[0])
	}
	ns, err := c.Nodes(ctx)
	must(t, err)
	if len(ns) != 2 || ns[0].ID != "a" || !ns[0].Live || ns[1].ID != "b" || ns[1].Live || !ns[1].Left || ns[1].Lost {
		t.Fatalf("nodes: %+v", ns)
	}
	_, err = c.Claim(ctx, "b", tbl.ID)
	if !errors.Is(err, sabot.ErrLeaseLost) {
		t.Fatalf("a claim by a node that left: %v", err)
	}
}

// A table created with an owner is that node's from its creation, at
// epoch 1: no other node claims it before the first claim of its creator
// (the race of a table created on a busy cluster).
func testClusterOwnedAtCreation(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := cluster(t, s)
	join(t, c, "a", time.Minute)
	join(t, c, "b", time.Minute)
	tbl := &sabot.Table{Name: "t", Profile: "venice", Owner: "a"}
	must(t, s.CreateTable(ctx, tbl))
	_, err := c.Claim(ctx, "b", tbl.ID)
	code(t, err, sabot.ECONFLICT)
	ls, err := c.Leases(ctx)
	must(t, err)
	if len(ls) != 1 || ls[0] != (sabot.Lease{TableID: tbl.ID, Node: "a", Epoch: 1, Live: true}) {
		t.Fatalf("leases of a table created owned: %+v", ls)
	}
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogTableOpened, Epoch: 1}}, nil)
	must(t, err)
	must(t, c.Release(ctx, "a", tbl.ID, 1))
	epoch, err := c.Claim(ctx, "b", tbl.ID)
	must(t, err)
	if epoch != 3 {
		t.Fatalf("claim after the creator released: epoch %d, want 3", epoch)
	}
}

// A node whose lease expires loses its tables to a claim; its renewal and
// its appends are refused; its loss is reported once.
func testClusterExpiry(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := cluster(t, s)
	join(t, c, "a", time.Minute) // live, however slow the machine, until the renewal below
	join(t, c, "b", time.Minute)
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	_, err := c.Claim(ctx, "a", tbl.ID)
	must(t, err)
	lost, err := c.NodeLost(ctx, "a")
	must(t, err)
	if lost {
		t.Fatal("a live node reported lost")
	}
	must(t, c.Renew(ctx, "a", 150*time.Millisecond))
	time.Sleep(300 * time.Millisecond)
	if err := c.Renew(ctx, "a", time.Minute); !errors.Is(err, sabot.ErrLeaseLost) {
		t.Fatalf("renewal of an expired lease: %v", err)
	}
	ls, err := c.Leases(ctx)
	must(t, err)
	if ls[0].Node != "a" || ls[0].Live {
		t.Fatalf("the lease of a node that expired: %+v", ls[0])
	}
	for i, want := range []bool{true, false} {
		lost, err := c.NodeLost(ctx, "a")
		must(t, err)
		if lost != want {
			t.Fatalf("NodeLost call %d: %v", i, lost)
		}
	}
	epoch, err := c.Claim(ctx, "b", tbl.ID)
	must(t, err)
	if epoch != 2 {
		t.Fatalf("takeover epoch %d", epoch)
	}
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAdmin, Epoch: 1}}, nil)
	fenced(t, err)
	ns, err := c.Nodes(ctx)
	must(t, err)
	if !ns[0].Lost || ns[0].Live || ns[0].Left {
		t.Fatalf("the lost node: %+v", ns[0])
	}
}

// Nodes claiming one table at once: exactly one gets it.
func testClusterClaimRace(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := cluster(t, s)
	const nodes, tables = 6, 4
	for i := range nodes {
		join(t, c, fmt.Sprint("n", i), time.Minute)
	}
	for range tables {
		must(t, s.CreateTable(ctx, &sabot.Table{Name: "t", Profile: "venice"}))
	}
	ts, err := s.Tables(ctx)
	must(t, err)
	won := make([]int, len(ts))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() {
			for j, tbl := range ts {
				_, err := c.Claim(ctx, fmt.Sprint("n", i), tbl.ID)
				if err == nil {
					mu.Lock()
					won[j]++
					mu.Unlock()
				} else if sabot.ErrorCode(err) != sabot.ECONFLICT {
					t.Errorf("claim: %v", err)
				}
			}
		})
	}
	wg.Wait()
	for j, n := range won {
		if n != 1 {
			t.Errorf("table %d claimed by %d nodes", ts[j].ID, n)
		}
	}
}

// A node appending while another takes its table over: every append under
// the old epoch that is not refused commits before the claim, so the log's
// epochs never go down.
func testClusterFenceRace(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	c := cluster(t, s)
	join(t, c, "a", time.Minute)
	join(t, c, "b", time.Minute)
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	old, err := c.Claim(ctx, "a", tbl.ID)
	must(t, err)
	// a's lease ends 100 ms after its claim, however slow the machine was
	// before it (a join with a lease of 100 ms could lapse before the claim).
	must(t, c.Renew(ctx, "a", 100*time.Millisecond))
	var refused error
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			if _, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAdmin, Epoch: old}}, nil); err != nil {
				refused = err
				return
			}
		}
	})
	var epoch int64
	for epoch == 0 {
		time.Sleep(20 * time.Millisecond)
		epoch, err = c.Claim(ctx, "b", tbl.ID)
		if err != nil && sabot.ErrorCode(err) != sabot.ECONFLICT {
			t.Fatal(err)
		}
	}
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAdmin, Epoch: epoch}}, nil)
	must(t, err)
	wg.Wait()
	fenced(t, refused)
	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if len(log) < 2 || log[len(log)-1].Epoch != epoch {
		t.Fatalf("log of %d records, the last under epoch %d", len(log), log[len(log)-1].Epoch)
	}
	for i, r := range log {
		if r.Seq != int64(i+1) || i > 0 && r.Epoch < log[i-1].Epoch {
			t.Fatalf("record %d: seq %d epoch %d after epoch %d", i, r.Seq, r.Epoch, log[max(i-1, 0)].Epoch)
		}
	}
}
