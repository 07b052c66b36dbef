package postgres_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"sabot"
	"sabot/internal/store/postgres"
	"sabot/internal/store/storetest"
)

// The suite runs on the database named by $SABOT_TEST_POSTGRES, each test in
// a schema of its own; without it the tests skip, or fail in CI.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) sabot.Store { return MustOpenDB(t) })
}

// DB is a store under test with raw access to its schema (storetest.Raw).
type DB struct {
	*postgres.DB
	raw *pgxpool.Pool
}

func (db *DB) RawExec(ctx context.Context, query string, args ...any) error {
	_, err := db.raw.Exec(ctx, query, args...)
	return err
}

func (db *DB) RawInt64(ctx context.Context, query string, args ...any) (n int64, err error) {
	err = db.raw.QueryRow(ctx, query, args...).Scan(&n)
	return n, err
}

// RawDropAmountBound drops migration 007's constraints (storetest.Unbounded).
func (db *DB) RawDropAmountBound(ctx context.Context) error {
	_, err := db.raw.Exec(ctx, `ALTER TABLE accounts DROP CONSTRAINT accounts_balance_bound;
		ALTER TABLE entries DROP CONSTRAINT entries_amount_bound`)
	return err
}

// MustOpenDB opens a store in a fresh schema, on storetest's clock, closed
// and dropped when the test ends.
func MustOpenDB(tb testing.TB) *DB {
	tb.Helper()
	return mustOpenDSN(tb, storetest.PostgresDSN(tb))
}

// mustOpenDSN opens the store a DSN names, closed when the test ends.
func mustOpenDSN(tb testing.TB, dsn string) *DB {
	tb.Helper()
	db := postgres.NewDB(dsn)
	db.Now = storetest.Now
	if err := db.Open(context.Background()); err != nil {
		tb.Fatal(err)
	}
	raw, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		raw.Close()
		db.Close()
	})
	return &DB{db, raw}
}

// Issue 11, finding 12: a store made before names were folded, holding
// "Alice" and "alice", migrates and keeps both.
func TestFoldedNamesMigration(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	db := mustOpenDSN(t, dsn)
	storetest.FoldedNamesMigration(t, db, func() sabot.Store {
		db.raw.Close()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return mustOpenDSN(t, dsn)
	})
}

// A process killed (SIGKILL) while it appends from many tables loses none
// of the appends it acknowledged.
func TestCrash(t *testing.T) {
	storetest.Crash(t, func() string { return storetest.PostgresDSN(t) }, func(tb testing.TB, dsn string) sabot.Store {
		db := postgres.NewDB(dsn)
		if err := db.Open(context.Background()); err != nil {
			tb.Fatal(err)
		}
		return db
	})
}

// Reopening a schema keeps its data and applies no migration twice, even
// when two open it at once.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	u := &sabot.User{Name: "ana"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			again := postgres.NewDB(db.DSN)
			err := again.Open(ctx)
			if err == nil {
				_, err = again.UserByName(ctx, "ana")
				again.Close()
			}
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	n, err := db.RawInt64(ctx, `SELECT COUNT(*) FROM schema_migrations`)
	files, _ := filepath.Glob("migrations/*.sql")
	if err != nil || n != int64(len(files)) || n < 2 {
		t.Fatalf("%d migrations recorded (%v), want %d, one per file", n, err, len(files))
	}
}

func TestOpenRefused(t *testing.T) {
	err := postgres.NewDB("postgres://sabot@localhost:notaport/db").Open(context.Background())
	if sabot.ErrorCode(err) != sabot.EINVALID {
		t.Errorf("a DSN that does not parse: %v, want EINVALID", err)
	}
	// Port 1 is closed: a server that cannot be reached is internal.
	err = postgres.NewDB("postgres://sabot@127.0.0.1:1/db?connect_timeout=2").Open(context.Background())
	if sabot.ErrorCode(err) != sabot.EINTERNAL {
		t.Errorf("no server: %v, want EINTERNAL", err)
	}
}

// TestIndexBackfill: a store written before the log's indexes is indexed
// when this version opens it (issue 11, finding 9).
func TestIndexBackfill(t *testing.T) {
	storetest.Backfill(t, storetest.PostgresDSN(t), func(tb testing.TB, dsn string, upTo int64) sabot.Store {
		db := postgres.NewDB(dsn)
		db.Now = storetest.Now
		postgres.MigrateTo(db, upTo)
		if err := db.Open(context.Background()); err != nil {
			tb.Fatal(err)
		}
		raw, err := pgxpool.New(context.Background(), dsn)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() {
			raw.Close()
			db.Close()
		})
		return &DB{db, raw}
	})
}
