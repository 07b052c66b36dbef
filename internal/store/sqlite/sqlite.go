// Package sqlite is the sabot.Store in a SQLite file, through the pure Go
// driver modernc.org/sqlite: the default store of `sabot serve`.
//
// The file is in WAL mode (readers do not block the writer), synchronous=FULL
// (a committed transaction survives a power cut), with foreign keys on. Every
// read-write transaction begins IMMEDIATE, taking the write lock at once, so
// concurrent writers wait for each other (busy_timeout, and in-process a
// one-slot queue) instead of failing halfway; read-only transactions are
// deferred and read one snapshot.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"sabot"
	"sabot/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is a sabot.Store in a SQLite database.
type DB struct {
	// DSN is the database file's path, or ":memory:" (one connection, gone
	// at Close: for tests). It may carry the driver's own parameters after
	// a '?': a _pragma there replaces the store's setting of that pragma
	// (sabot.db?_pragma=synchronous(NORMAL)).
	DSN string
	// Now is the clock that stamps records.
	Now func() time.Time

	*sqlstore.Store
	db *sql.DB
}

var _ sabot.Store = (*DB)(nil)

// NewDB returns a DB for a DSN on the real clock; Open opens it.
func NewDB(dsn string) *DB {
	return &DB{DSN: dsn, Now: time.Now}
}

// pragmas are the settings of every connection of the pool, unless the DSN
// sets the same pragma.
var pragmas = []string{"busy_timeout(10000)", "foreign_keys(1)", "synchronous(FULL)", "journal_mode(WAL)"}

// source is the driver's data source for a DSN's path and parameters: the
// DSN's own parameters, then each of pragmas the DSN does not set, and
// _txlock=immediate, which it may not change (the store relies on it).
func source(path, query string) (string, error) {
	q, err := url.ParseQuery(query)
	if err != nil {
		return "", err
	}
	set := map[string]bool{}
	for _, p := range q["_pragma"] {
		name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(p)), "(")
		name, _, _ = strings.Cut(name, "=")
		set[strings.TrimSpace(name)] = true
	}
	for _, p := range pragmas {
		name, _, _ := strings.Cut(p, "(")
		if name == "journal_mode" && path == ":memory:" {
			continue
		}
		if !set[name] {
			q.Add("_pragma", p)
		}
	}
	q.Set("_txlock", "immediate")
	return path + "?" + q.Encode(), nil
}

// Open opens the database, creating the file if there is none, and applies
// the migrations it has not had yet. A DSN that cannot name a database is
// EINVALID.
func (db *DB) Open(ctx context.Context) error {
	path, query, _ := strings.Cut(db.DSN, "?")
	if path == "" {
		return sabot.Errorf(sabot.EINVALID, "no database file named")
	}
	memory := path == ":memory:"
	if !memory && !strings.HasPrefix(path, "file:") {
		if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
			return sabot.Errorf(sabot.EINVALID, "no directory %s for the database %s", filepath.Dir(path), path)
		}
	}
	src, err := source(path, query)
	if err != nil {
		return sabot.Errorf(sabot.EINVALID, "the database %s: %v", db.DSN, err)
	}
	sdb, err := sql.Open("sqlite", src)
	if err != nil {
		return sabot.Errorf(sabot.EINVALID, "the database %s: %v", db.DSN, err)
	}
	if memory {
		// Each connection to ":memory:" is a database of its own.
		sdb.SetMaxOpenConns(1)
	} else {
		sdb.SetMaxOpenConns(8)
	}
	now := db.Now
	if now == nil {
		now = time.Now
	}
	c := &conn{db: sdb, writer: make(chan struct{}, 1)}
	if err := sdb.PingContext(ctx); err != nil {
		sdb.Close()
		return sabot.Errorf(sabot.EINVALID, "cannot open the database %s: %v", db.DSN, err)
	}
	if err := sqlstore.Migrate(ctx, c, migrations, "migrations", ""); err != nil {
		sdb.Close()
		var e *sqlite.Error
		if errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_NOTADB {
			return sabot.Errorf(sabot.EINVALID, "%s is not a SQLite database", path)
		}
		return sabot.Internal(fmt.Errorf("sqlite %s: %w", db.DSN, err))
	}
	db.db, db.Store = sdb, sqlstore.New(c, now)
	return nil
}

// Close closes the database.
func (db *DB) Close() error {
	if db.db == nil {
		return nil
	}
	return db.db.Close()
}

// conn is the sqlstore.Conn of a *sql.DB.
type conn struct {
	db *sql.DB
	// writer is held by the read-write transaction in progress: writers of
	// this process queue here rather than poll the file lock.
	writer chan struct{}
}

func (c *conn) InTx(ctx context.Context, readOnly bool, fn func(sqlstore.Tx) error) error {
	if !readOnly {
		select {
		case c.writer <- struct{}{}:
			defer func() { <-c.writer }()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	tx, err := c.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: readOnly})
	if err != nil {
		return classify(err)
	}
	if err := fn(sqlTx{tx}); err != nil {
		tx.Rollback()
		return err
	}
	return classify(tx.Commit())
}

// classify marks the errors sqlstore acts on.
func classify(err error) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return err
	}
	switch code := e.Code(); {
	case code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return fmt.Errorf("%w: %w", sqlstore.ErrUnique, err)
	case code&0xff == sqlite3.SQLITE_BUSY:
		return fmt.Errorf("%w: %w", sqlstore.ErrRetry, err)
	}
	return err
}

type sqlTx struct{ tx *sql.Tx }

func (t sqlTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := t.tx.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, classify(err)
	}
	return res.RowsAffected()
}

func (t sqlTx) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return sqlRow{t.tx.QueryRowContext(ctx, query, args...)}
}

func (t sqlTx) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := t.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	return sqlRows{rows}, nil
}

type sqlRow struct{ row *sql.Row }

func (r sqlRow) Scan(dest ...any) error { return classify(r.row.Scan(dest...)) }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }
