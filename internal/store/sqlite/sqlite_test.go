package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"sabot"
	"sabot/internal/store/sqlite"
	"sabot/internal/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) sabot.Store { return MustOpenDB(t) })
}

// DB is a store under test with raw access to its file (storetest.Raw).
type DB struct {
	*sqlite.DB
	raw *sql.DB
}

func (db *DB) RawExec(ctx context.Context, query string, args ...any) error {
	_, err := db.raw.ExecContext(ctx, query, args...)
	return err
}

func (db *DB) RawInt64(ctx context.Context, query string, args ...any) (n int64, err error) {
	err = db.raw.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, err
}

// RawDropAmountBound drops migration 007's triggers (storetest.Unbounded).
func (db *DB) RawDropAmountBound(ctx context.Context) error {
	for _, name := range []string{"accounts_balance_bound_insert", "accounts_balance_bound_update", "entries_amount_bound_insert", "entries_amount_bound_update"} {
		if _, err := db.raw.ExecContext(ctx, `DROP TRIGGER `+name); err != nil {
			return err
		}
	}
	return nil
}

// MustOpenDB opens a store in a new file of the test's temp directory, on
// storetest's clock, closed when the test ends.
func MustOpenDB(tb testing.TB) *DB {
	tb.Helper()
	return mustOpenPath(tb, filepath.Join(tb.TempDir(), "sabot.db"))
}

// mustOpenPath opens the store in a file, closed when the test ends.
func mustOpenPath(tb testing.TB, path string) *DB {
	tb.Helper()
	db := sqlite.NewDB(path)
	db.Now = storetest.Now
	if err := db.Open(context.Background()); err != nil {
		tb.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		raw.Close()
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return &DB{db, raw}
}

// A store made before names were folded, holding
// "Alice" and "alice", migrates and keeps both.
func TestFoldedNamesMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sabot.db")
	db := mustOpenPath(t, path)
	storetest.FoldedNamesMigration(t, db, func() sabot.Store {
		db.raw.Close()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		return mustOpenPath(t, path)
	})
}

// A database file opened read-only (SQLite falls back
// to that when the file is not writable; mode=ro does it for root too)
// serves reads and fails its check of writes with SQLite's reason.
func TestCheckWritableReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sabot.db")
	db := mustOpenPath(t, path)
	if err := db.CheckWritable(context.Background()); err != nil {
		t.Fatal(err)
	}
	db.raw.Close()
	db.Close()
	ro := sqlite.NewDB("file:" + path + "?mode=ro")
	if err := ro.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Tables(context.Background()); err != nil {
		t.Fatalf("a read-only store does not read: %v", err)
	}
	if err := ro.CheckWritable(context.Background()); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Fatalf("CheckWritable on a read-only file: %v", err)
	}
}

// A process killed (SIGKILL) while it appends from many tables loses none
// of the appends it acknowledged.
func TestCrash(t *testing.T) {
	storetest.Crash(t, func() string { return filepath.Join(t.TempDir(), "crash.db") }, func(tb testing.TB, dsn string) sabot.Store {
		db := sqlite.NewDB(dsn)
		if err := db.Open(context.Background()); err != nil {
			tb.Fatal(err)
		}
		return db
	})
}

// Reopening a database keeps its data and applies no migration twice.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	u := &sabot.User{Name: "ana"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	again := sqlite.NewDB(db.DSN)
	if err := again.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.UserByName(ctx, "ana"); err != nil {
		t.Fatal(err)
	}
	n, err := db.RawInt64(ctx, `SELECT COUNT(*) FROM schema_migrations`)
	files, _ := filepath.Glob("migrations/*.sql")
	if err != nil || n != int64(len(files)) || n < 2 {
		t.Fatalf("%d migrations recorded (%v), want %d, one per file", n, err, len(files))
	}
	mode, err := rawString(db, `PRAGMA journal_mode`)
	if err != nil || mode != "wal" {
		t.Fatalf("journal_mode %q (%v), want wal", mode, err)
	}
}

func rawString(db *DB, query string) (s string, err error) {
	err = db.raw.QueryRow(query).Scan(&s)
	return s, err
}

// Two handles on one file, as two processes would have, serialize their
// writes on the file's lock (BEGIN IMMEDIATE and busy_timeout): no
// "database is locked", no wallet below zero.
func TestTwoHandles(t *testing.T) {
	ctx := context.Background()
	a := MustOpenDB(t)
	b := sqlite.NewDB(a.DSN)
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	house, _ := a.Account(ctx, sabot.AccountHouse, 0)
	wallet, _ := a.Account(ctx, sabot.AccountWallet, 1)
	if err := a.Transfer(ctx, "credit", []sabot.Posting{{AccountID: house.ID, Amount: -500}, {AccountID: wallet.ID, Amount: 500}}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := range 40 {
		s := sabot.Store(a)
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			err := s.Transfer(ctx, "spend", []sabot.Posting{{AccountID: wallet.ID, Amount: -20}, {AccountID: house.ID, Amount: 20}})
			mu.Lock()
			defer mu.Unlock()
			switch sabot.ErrorCode(err) {
			case "":
				ok++
			case sabot.EINSUFFICIENT:
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	w, _ := a.Account(ctx, sabot.AccountWallet, 1)
	if ok != 25 || w.Balance != 0 {
		t.Fatalf("%d spends succeeded, wallet %d; want 25 and 0", ok, w.Balance)
	}
	r, err := b.CheckLedger(ctx)
	if err != nil || !r.OK() {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestMemory(t *testing.T) {
	ctx := context.Background()
	db := sqlite.NewDB(":memory:")
	if err := db.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	if err := db.CreateTable(ctx, tbl); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if _, err := db.Append(ctx, sabot.Appending(&sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAction}), nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	log, err := db.Log(ctx, tbl.ID, 1)
	if err != nil || len(log) != 10 || log[9].Seq != 10 {
		t.Fatalf("%d records, %v", len(log), err)
	}
}

func TestOpenRefused(t *testing.T) {
	notDB := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dsn := range []string{"", filepath.Join(t.TempDir(), "no-such-dir", "sabot.db"), filepath.Join(t.TempDir(), "x.db") + "?_busy_timeout=soon", notDB} {
		err := sqlite.NewDB(dsn).Open(context.Background())
		if sabot.ErrorCode(err) != sabot.EINVALID {
			t.Errorf("Open(%q): %v, want EINVALID", dsn, err)
		}
	}
}

// openAt opens the store at dsn migrated up to version upTo, as an older
// sabot left it.
func openAt(tb testing.TB, dsn string, upTo int64) sabot.Store {
	db := sqlite.NewDB(dsn)
	db.Now = storetest.Now
	sqlite.MigrateTo(db, upTo)
	if err := db.Open(context.Background()); err != nil {
		tb.Fatal(err)
	}
	raw, err := sql.Open("sqlite", dsn+"?_pragma=busy_timeout(10000)")
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
	path := filepath.Join(t.TempDir(), "sabot.db")
	storetest.Backfill(t, path, openAt)
}

// TestTableHouseMigration: a store written before the tables' house
// accounts keeps its ledger, read as the house with them.
func TestTableHouseMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sabot.db")
	storetest.TableHouseMigration(t, path, openAt)
}
