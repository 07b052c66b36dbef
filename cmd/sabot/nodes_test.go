package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sabot nodes on a SQLite store: the one node that served it, and a missing
// database refused (exit 2) without being created.
func TestNodesCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, errb, code := run(t, "", "nodes", "--db", filepath.Join(dir, "none.db")); code != 2 || !strings.Contains(errb, "no database") {
		t.Fatalf("sabot nodes on a missing file: exit %d, %q", code, errb)
	}
	db := filepath.Join(dir, "sabot.db")
	p := startServe(t, db, freeAddr(t))
	var r NodesReport
	within(t, 10*time.Second, "the six default tables open", func() bool {
		out, errb, code := run(t, "", "nodes", "--db", db, "--json")
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
			t.Fatalf("sabot nodes --json: %d %s %s", code, out, errb)
		}
		return len(r.Nodes) == 1 && len(r.Nodes[0].Tables) == 6
	})
	if len(r.Nodes) != 1 || r.Nodes[0].URL != p.url || r.Nodes[0].State != "live" || len(r.Nodes[0].Tables) != 6 || len(r.Unowned) != 0 {
		t.Fatalf("the nodes of a served SQLite file: %+v", r)
	}
	out, _, code := run(t, "", "nodes", "--db", db)
	if code != 0 || !strings.Contains(out, p.url) || !strings.Contains(out, "1 live nodes, 6 tables") {
		t.Fatalf("sabot nodes: %d\n%s", code, out)
	}
	p.stop(t)
	// Stopped: it left, its tables are free; --all still lists it.
	out, _, _ = run(t, "", "nodes", "--db", db, "--json", "--all")
	json.Unmarshal([]byte(out), &r)
	if len(r.Nodes) != 1 || r.Nodes[0].State != "left" || len(r.Unowned) != 6 {
		t.Fatalf("after the node stopped: %+v", r)
	}
}
