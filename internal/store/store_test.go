package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/store"
	"sabot/internal/store/postgres"
	"sabot/internal/store/sqlite"
	"sabot/internal/store/storetest"
)

// Open chooses the driver by the DSN.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), store.DefaultDSN))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok := s.(*sqlite.DB); !ok {
		t.Errorf("a file path opened a %T", s)
	}
	if got := sabot.CapabilitiesOf(s); got != sqlite.Capabilities {
		t.Errorf("the SQLite store provides %s; it declares %s", got, sqlite.Capabilities)
	}
	if _, err := store.Open(ctx, "postgres://sabot@localhost:notaport/db"); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("a bad PostgreSQL DSN: %v, want EINVALID", err)
	}
	for _, dsn := range []string{"postgres://x", "postgresql://x"} {
		if !store.IsPostgres(dsn) {
			t.Errorf("IsPostgres(%q) = false", dsn)
		}
	}
	for _, dsn := range []string{"sabot.db", "/var/lib/sabot/postgres.db", ":memory:"} {
		if store.IsPostgres(dsn) {
			t.Errorf("IsPostgres(%q) = true", dsn)
		}
	}
}

func TestOpenPostgres(t *testing.T) {
	s, err := store.Open(context.Background(), storetest.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok := s.(*postgres.DB); !ok {
		t.Errorf("a postgres:// DSN opened a %T", s)
	}
	if got := sabot.CapabilitiesOf(s); got != postgres.Capabilities {
		t.Errorf("the PostgreSQL store provides %s; it declares %s", got, postgres.Capabilities)
	}
}

// BenchmarkAppend: a bet (a log record and two postings) per op. Run with
// -benchmem; ops/s is reported. SQLite commits with synchronous=FULL: each
// op waits for the disk.
func BenchmarkAppend(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkAppend(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		s, err := store.Open(context.Background(), storetest.PostgresDSN(b))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkAppend(b, s)
	})
}

// BenchmarkStake: a bet as the server writes a player's: BenchmarkAppend's
// with the stake's guard (his session, exclusion, block and limits read in
// its transaction).
func BenchmarkStake(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkStake(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		s, err := store.Open(context.Background(), storetest.PostgresDSN(b))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkStake(b, s)
	})
}

// BenchmarkSettle: a settlement of seven players (storetest.BenchmarkSettle).
func BenchmarkSettle(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkSettle(b, s)
	})
	b.Run("sqlite-nosync", func(b *testing.B) { // the SQL's own work, without the sync
		s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db")+"?_pragma=synchronous(OFF)")
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkSettle(b, s)
	})
}

// BenchmarkAppendTables: bets appended from 100 tables at once, as a server's
// tables append; the group commit shares each transaction between them.
// Reports appends/s, p50-µs and p99-µs of an append, and appends/tx.
func BenchmarkAppendTables(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkAppendTables(b, s, 100)
	})
	b.Run("postgres", func(b *testing.B) {
		s, err := store.Open(context.Background(), storetest.PostgresDSN(b))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkAppendTables(b, s, 100)
	})
}

// BenchmarkSettleNodes: settlements from three nodes (stores) on one
// database, 30 tables each, their house's side on the central house
// ("central": one row, as before the split) or on each table's own
// ("per-table"). Reports settles/s, p50-µs and p99-µs (docs/server.md).
func BenchmarkSettleNodes(b *testing.B) {
	for _, perTable := range []bool{false, true} {
		name := "central"
		if perTable {
			name = "per-table"
		}
		b.Run("postgres/"+name, func(b *testing.B) {
			dsn := storetest.PostgresDSN(b)
			var stores []sabot.Store
			for range 3 {
				s, err := store.Open(context.Background(), dsn)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				stores = append(stores, s)
			}
			storetest.BenchmarkSettleNodes(b, stores, 30, perTable)
		})
		b.Run("sqlite/"+name, func(b *testing.B) {
			s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storetest.BenchmarkSettleNodes(b, []sabot.Store{s}, 90, perTable)
		})
	}
}

// BenchmarkBulkLoad: a batch of 1,000 rounds (a deal and a settle with its
// postings each) per op, through the bulk load `sabot report synth` writes
// by; rounds/s is reported (docs/pit.md).
func BenchmarkBulkLoad(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkBulkLoad(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		s, err := store.Open(context.Background(), storetest.PostgresDSN(b))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		storetest.BenchmarkBulkLoad(b, s)
	})
}

// Lock holds a SQLite file for one server: a second lock on it is refused
// (conflict, naming the file and the holder's process), a released one can
// be taken again, and PostgreSQL and in-memory databases need none.
func TestLock(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sabot.db")
	unlock, err := store.Lock("file:" + db + "?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.Lock(db)
	if sabot.ErrorCode(err) != sabot.ECONFLICT || !strings.Contains(err.Error(), db+" is served by process "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("a second lock on %s: %v", db, err)
	}
	unlock()
	again, err := store.Lock(db)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
	for _, dsn := range []string{"postgres://u:p@127.0.0.1/db", ":memory:", "file::memory:?cache=shared"} {
		release, err := store.Lock(dsn)
		if err != nil {
			t.Errorf("%s: %v", dsn, err)
			continue
		}
		release()
	}
}
