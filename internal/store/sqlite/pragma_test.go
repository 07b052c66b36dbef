package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// The store's connections run with its pragmas, unless the DSN sets one.
func TestPragmas(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		query       string
		synchronous int // 1 NORMAL, 2 FULL
	}{
		{"", 2},
		{"?_pragma=synchronous(NORMAL)", 1},
		{"?_pragma=synchronous%3DNORMAL", 1},
	} {
		db := NewDB(filepath.Join(t.TempDir(), "sabot.db") + tt.query)
		if err := db.Open(ctx); err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var sync, fk, busy int
		var mode string
		for q, v := range map[string]any{
			"PRAGMA synchronous": &sync, "PRAGMA foreign_keys": &fk, "PRAGMA busy_timeout": &busy, "PRAGMA journal_mode": &mode,
		} {
			if err := db.db.QueryRowContext(ctx, q).Scan(v); err != nil {
				t.Fatal(err)
			}
		}
		if sync != tt.synchronous || fk != 1 || busy != 10000 || mode != "wal" {
			t.Errorf("DSN %q: synchronous %d foreign_keys %d busy_timeout %d journal_mode %s", tt.query, sync, fk, busy, mode)
		}
	}
}
