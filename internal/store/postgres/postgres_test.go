package postgres_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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

// A store made before names were folded, holding
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

// openAt opens the store at dsn migrated up to version upTo, as an older
// sabot left it.
func openAt(tb testing.TB, dsn string, upTo int64) sabot.Store {
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
}

// TestIndexBackfill: a store written before the log's indexes is indexed
// when this version opens it.
func TestIndexBackfill(t *testing.T) {
	storetest.Backfill(t, storetest.PostgresDSN(t), openAt)
}

// TestTableHouseMigration: a store written before the tables' house
// accounts keeps its ledger, read as the house with them.
func TestTableHouseMigration(t *testing.T) {
	storetest.TableHouseMigration(t, storetest.PostgresDSN(t), openAt)
}

// A node paused in the middle of a batch of appends (SIGSTOP, a
// GC stall) holds its tables' row locks. Once its lease expires another
// node takes the table over all the same: the server ends the paused
// transaction (idle_in_transaction_session_timeout), the claim waits for
// it, not for the node to wake; the paused node's commit then fails.
func TestPausedTransactionDoesNotBlockTakeover(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.PostgresDSN(t)
	db := mustOpenDSN(t, dsn)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Join(ctx, &sabot.Node{ID: "a", URL: "http://a"}, 300*time.Millisecond))
	must(db.Join(ctx, &sabot.Node{ID: "b", URL: "http://b"}, time.Minute))
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(db.CreateTable(ctx, tbl))
	epoch, err := db.Claim(ctx, "a", tbl.ID)
	must(err)

	// Node a's connection, as the store makes it, stops mid-append.
	cfg, err := postgres.PoolConfig(dsn)
	must(err)
	paused, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	must(err)
	defer paused.Close(ctx)
	tx, err := paused.Begin(ctx)
	must(err)
	if _, err := tx.Exec(ctx, `UPDATE tables SET last_seq = last_seq + 1 WHERE id = $1 AND epoch = $2`, tbl.ID, epoch); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // a's lease expires

	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		epoch, err = db.Claim(cctx, "b", tbl.ID)
		if sabot.ErrorCode(err) != sabot.EUNAVAILABLE || cctx.Err() != nil {
			break // EUNAVAILABLE: a lock_timeout; the next scan tries again
		}
	}
	if err != nil || epoch != 2 {
		t.Fatalf("the takeover of a table whose old owner sleeps in a transaction: epoch %d, %v", epoch, err)
	}
	if err := tx.Commit(ctx); err == nil {
		t.Fatal("the paused transaction committed after its table was taken over")
	}
	if n, err := db.RawInt64(ctx, `SELECT last_seq FROM tables WHERE id = $1`, tbl.ID); err != nil || n != 0 {
		t.Fatalf("last_seq %d, %v: the paused append must not count", n, err)
	}
}

// A DSN that names a session parameter keeps its value.
func TestSessionDefaults(t *testing.T) {
	cfg, err := postgres.PoolConfig("postgres://u@h/db?lock_timeout=100")
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.ConnConfig.RuntimeParams
	if p["lock_timeout"] != "100" || p["idle_in_transaction_session_timeout"] != "2000" {
		t.Fatalf("runtime params: %v", p)
	}
}
