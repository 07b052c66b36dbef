package sqlite_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/store/sqlstore"
	"sabot/internal/store/storetest"
)

// plan is SQLite's plan of Find's query for q, one line a step.
func plan(t *testing.T, db *DB, q sabot.LogQuery) string {
	t.Helper()
	query, args, err := sqlstore.FindQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.raw.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var steps []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(steps, "; ")
}

// TestLogKindCreatedServesCrossTableKinds: every read across tables by kind
// and time — each kind of CrossTableKinds alone (the reports' pages, with a
// period and a cursor) and the significant kinds together (recall's words)
// — is a search of the partial index log_kind_created, not a scan of the
// log; a kind outside it (a bet) is not in the index.
func TestLogKindCreatedServesCrossTableKinds(t *testing.T) {
	db := MustOpenDB(t)
	from, to := storetest.Now(), storetest.Now().Add(time.Hour)
	for _, k := range sqlstore.CrossTableKinds {
		q := sabot.LogQuery{Kinds: []string{k}, Since: from, Newest: true, Limit: 100, Before: &sabot.LogRecord{Created: to}}
		if p := plan(t, db, q); !strings.Contains(p, "USING INDEX log_kind_created") || strings.Contains(p, "SCAN l") {
			t.Errorf("%s across tables: %s, want a search of log_kind_created", k, p)
		}
	}
	for _, kinds := range [][]string{sabot.SignificantKinds, {sabot.LogSettle, sabot.LogVoid, sabot.LogAdmin}} {
		if !slices.ContainsFunc(kinds, func(k string) bool { return slices.Contains(sqlstore.CrossTableKinds, k) }) {
			t.Fatalf("%v: not cross-table kinds", kinds)
		}
		for _, k := range kinds {
			if !slices.Contains(sqlstore.CrossTableKinds, k) {
				t.Errorf("%s is read across tables but not in CrossTableKinds", k)
			}
		}
		q := sabot.LogQuery{Kinds: kinds, Since: from, Newest: true, Limit: 20}
		if p := plan(t, db, q); !strings.Contains(p, "USING INDEX log_kind_created") || strings.Contains(p, "SCAN l") {
			t.Errorf("%v across tables: %s, want searches of log_kind_created", kinds, p)
		}
	}
	q := sabot.LogQuery{Kinds: []string{sabot.LogBet}, Newest: true, Limit: 20}
	if p := plan(t, db, q); strings.Contains(p, "log_kind_created") {
		t.Errorf("bets across tables: %s; the index holds no bet", p)
	}
}

// TestLogKindCreatedMigration: a store written before migration 022 (every
// kind in log_kind_created) opens with the partial index, and every read
// across tables returns what it returned, bets included (read on the log).
func TestLogKindCreatedMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sabot.db")
	old := openAt(t, path, 21)
	a, b := &sabot.Table{Name: "A", Profile: "spain"}, &sabot.Table{Name: "B", Profile: "venice"}
	for _, tbl := range []*sabot.Table{a, b} {
		if err := old.CreateTable(ctx, tbl); err != nil {
			t.Fatal(err)
		}
	}
	at := func(sec int) time.Time { return storetest.Now().Add(time.Duration(sec) * time.Second) }
	for i, rec := range []*sabot.LogRecord{
		{TableID: a.ID, Kind: sabot.LogTableOpened}, {TableID: b.ID, Kind: sabot.LogTableOpened},
		{TableID: a.ID, Kind: sabot.LogBet}, {TableID: b.ID, Kind: sabot.LogBet},
		{TableID: a.ID, Kind: sabot.LogDeal, RoundNo: 1}, {TableID: b.ID, Kind: sabot.LogDeal, RoundNo: 1},
		{TableID: a.ID, Kind: sabot.LogAction, RoundNo: 1}, {TableID: a.ID, Kind: sabot.LogSettle, RoundNo: 1},
		{TableID: b.ID, Kind: sabot.LogVoid, RoundNo: 1}, {TableID: b.ID, Kind: sabot.LogAdmin},
	} {
		rec.Created = at(i)
		if _, err := old.Append(ctx, sabot.Appending(rec), nil); err != nil {
			t.Fatal(err)
		}
	}
	queries := []sabot.LogQuery{
		{Kinds: []string{sabot.LogDeal}, Since: at(0), Newest: true, Limit: 10, Before: &sabot.LogRecord{Created: at(100)}},
		{Kinds: []string{sabot.LogSettle}, Newest: true},
		{Kinds: sabot.SignificantKinds, Since: at(0), Newest: true, Limit: 10},
		{Kinds: []string{sabot.LogSettle, sabot.LogVoid, sabot.LogAdmin}},
		{Kinds: []string{sabot.LogBet}, Newest: true},
		{Kinds: []string{sabot.LogBet, sabot.LogAction}},
	}
	found := func(s sabot.Store) []string {
		var out []string
		for _, q := range queries {
			recs, err := s.Find(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var line []string
			for _, r := range recs {
				line = append(line, r.Kind+"@"+string(rune('A'+r.TableID-a.ID))+"."+string(rune('0'+r.Seq)))
			}
			out = append(out, strings.Join(line, " "))
		}
		return out
	}
	before := found(old)
	if sql, err := indexSQL(old.(*DB)); err != nil || strings.Contains(sql, "WHERE") {
		t.Fatalf("before 022: %q %v, want the index of every kind", sql, err)
	}
	old.(*DB).DB.Close()
	db := mustOpenPath(t, path)
	if sql, err := indexSQL(db); err != nil || !strings.Contains(sql, "WHERE kind = 'table-opened'") {
		t.Fatalf("after 022: %q %v, want the partial index", sql, err)
	}
	after := found(db)
	if !slices.Equal(before, after) {
		t.Fatalf("across tables before the migration:\n%q\nafter:\n%q", before, after)
	}
	if before[0] != "deal@B.3 deal@A.3" || before[4] != "bet@B.2 bet@A.2" {
		t.Fatalf("found %q", before)
	}
}

func indexSQL(db *DB) (string, error) {
	var sql string
	err := db.raw.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'log_kind_created'`).Scan(&sql)
	return sql, err
}
