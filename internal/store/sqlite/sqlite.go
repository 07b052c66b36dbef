// Package sqlite is the sabot.Store in a SQLite file, through the pure Go
// driver modernc.org/sqlite: the default store of `sabot serve`.
//
// The file is in WAL mode (readers do not block the writer), synchronous=FULL
// (a committed transaction survives a power cut), with foreign keys on. Every
// read-write transaction begins IMMEDIATE, taking the write lock at once, so
// concurrent writers wait for each other (busy_timeout, and in-process a
// one-slot queue) instead of failing halfway; read-only transactions are
// deferred and read one snapshot. Appends go through the store's group
// commit (sqlstore): one writer, on a connection of its own, commits the
// appends of every table that are ready together, with one sync. Every
// query's statement is prepared once and kept.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	migrateTo int64 // tests: apply the migrations up to this version only (0: all)
	db        *sql.DB
	conn      *conn
}

var _ sabot.Store = (*DB)(nil)

// Capabilities are the optional parts (sabot.Capability) that the SQLite store: a single node's, so without revocations for other nodes. Its tests hold it to what the type implements.
const Capabilities = sabot.CapCare | sabot.CapOutbox | sabot.CapDevices | sabot.CapCluster | sabot.CapCommits | sabot.CapWriteCheck | sabot.CapRollups

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
		// 8 for the reads and the other writes, 1 kept by the group
		// commit's writer; all kept open (a new connection applies the
		// pragmas again).
		sdb.SetMaxOpenConns(9)
		sdb.SetMaxIdleConns(9)
	}
	now := db.Now
	if now == nil {
		now = time.Now
	}
	c := &conn{db: sdb, writer: make(chan struct{}, 1), memory: memory, stmts: map[string]*sql.Stmt{}, preparing: map[string]bool{}}
	if err := sdb.PingContext(ctx); err != nil {
		sdb.Close()
		return sabot.Errorf(sabot.EINVALID, "cannot open the database %s: %v", db.DSN, err)
	}
	if err := sqlstore.Migrate(ctx, c, db.migrations(), "migrations", ""); err != nil {
		c.close()
		sdb.Close()
		var e *sqlite.Error
		if errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_NOTADB {
			return sabot.Errorf(sabot.EINVALID, "%s is not a SQLite database", path)
		}
		return sabot.Internal(fmt.Errorf("sqlite %s: %w", db.DSN, err))
	}
	// One writer: SQLite writes one transaction at a time.
	db.db, db.conn, db.Store = sdb, c, sqlstore.New(c, now, sqlstore.Config{Writers: 1, Positional: true, OneWriter: true})
	return nil
}

// Close closes the database: the batch of appends being committed completes,
// appends still queued fail.
func (db *DB) Close() error {
	if db.db == nil {
		return nil
	}
	db.Store.Close()
	db.conn.close()
	return db.db.Close()
}

// conn is the sqlstore.Conn of a *sql.DB.
type conn struct {
	db *sql.DB
	// writer is held by the read-write transaction in progress: writers of
	// this process queue here rather than poll the file lock.
	writer chan struct{}
	memory bool // ":memory:": one connection

	// Every query's statement, prepared once (on each connection of the
	// pool, as it comes) rather than parsed at every execution.
	mu        sync.Mutex
	stmts     map[string]*sql.Stmt
	preparing map[string]bool
	closed    bool           // no more preparing: the database is closing
	prepares  sync.WaitGroup // the preparations under way
}

// close waits for the preparations under way (each holds a connection,
// which must be closed with the others) and starts no more.
func (c *conn) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.prepares.Wait()
}

// maxStmts bounds the statements kept prepared; the store's are far fewer
// (the INSERT of entries varies with the number of postings).
const maxStmts = 256

// stmt returns the prepared statement of a query, or nil: then the query
// runs unprepared this time, and its statement is prepared in the
// background. Preparing takes a connection of the pool: a transaction, which
// holds one already, must not wait for another.
func (c *conn) stmt(query string) *sql.Stmt {
	if strings.Contains(query, ";") { // a migration's script
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st
	}
	if c.closed || c.preparing[query] || len(c.stmts)+len(c.preparing) >= maxStmts {
		return nil
	}
	c.preparing[query] = true
	c.prepares.Go(func() {
		st, err := c.db.Prepare(query)
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.preparing, query)
		if err != nil {
			st = nil // runs unprepared from now on, and fails there if it must
		}
		c.stmts[query] = st
	})
	return nil
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
	return c.run(tx, fn)
}

// run runs fn in tx and commits it, or rolls it back.
func (c *conn) run(tx *sql.Tx, fn func(sqlstore.Tx) error) error {
	if err := fn(sqlTx{tx, c}); err != nil {
		tx.Rollback()
		return err
	}
	return classify(tx.Commit())
}

// Writer gives a group-commit writer a connection of its own, taken from
// the pool when it first writes. With ":memory:" the pool's one connection
// is the database: the writer shares it.
func (c *conn) Writer() (sqlstore.Conn, func()) {
	if c.memory {
		return c, func() {}
	}
	w := &writerConn{c: c}
	return w, w.release
}

// writerConn is the Conn of a group-commit writer: its read-write
// transactions run on one connection (after taking the process's writer
// turn, as every writer does); its reads on the pool.
type writerConn struct {
	c  *conn
	sc *sql.Conn // nil until the first write, or after a connection failed
}

func (w *writerConn) InTx(ctx context.Context, readOnly bool, fn func(sqlstore.Tx) error) error {
	if readOnly {
		return w.c.InTx(ctx, true, fn)
	}
	select {
	case w.c.writer <- struct{}{}:
		defer func() { <-w.c.writer }()
	case <-ctx.Done():
		return ctx.Err()
	}
	if w.sc == nil {
		sc, err := w.c.db.Conn(ctx)
		if err != nil {
			return classify(err)
		}
		// The savepoint of each append of a batch (sqlstore group.go)
		// keeps the pages it changes in a sub-journal, which SQLite
		// spills to a temporary file past 64 KiB: a write system call per
		// page changed, a seventh of the writer's processor time at 50
		// appends a batch. In memory it is bounded by the batch (at most
		// MaxBatch appends' pages) and gone at its commit; the database's
		// durability does not depend on it (the WAL's sync does).
		if _, err := sc.ExecContext(ctx, `PRAGMA temp_store = MEMORY`); err != nil {
			sc.Close()
			return classify(err)
		}
		w.sc = sc
	}
	tx, err := w.sc.BeginTx(ctx, nil)
	if err != nil {
		w.release() // the next transaction takes a fresh connection
		return classify(err)
	}
	return w.c.run(tx, fn)
}

func (w *writerConn) Writer() (sqlstore.Conn, func()) { return w, func() {} }

func (w *writerConn) release() {
	if w.sc != nil {
		w.sc.Close()
		w.sc = nil
	}
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

type sqlTx struct {
	tx *sql.Tx
	c  *conn
}

func (t sqlTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	var res sql.Result
	var err error
	if st := t.prepared(ctx, query); st != nil {
		res, err = st.ExecContext(ctx, args...)
	} else {
		res, err = t.tx.ExecContext(ctx, query, args...)
	}
	if err != nil {
		return 0, classify(err)
	}
	return res.RowsAffected()
}

func (t sqlTx) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	if st := t.prepared(ctx, query); st != nil {
		return sqlRow{st.QueryRowContext(ctx, args...)}
	}
	return sqlRow{t.tx.QueryRowContext(ctx, query, args...)}
}

// prepared returns the transaction's use of a query's prepared statement,
// or nil.
func (t sqlTx) prepared(ctx context.Context, query string) *sql.Stmt {
	st := t.c.stmt(query)
	if st == nil {
		return nil
	}
	return t.tx.StmtContext(ctx, st)
}

func (t sqlTx) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	var rows *sql.Rows
	var err error
	if st := t.prepared(ctx, query); st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = t.tx.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return nil, classify(err)
	}
	return sqlRows{rows}, nil
}

type sqlRow struct{ row *sql.Row }

func (r sqlRow) Scan(dest ...any) error { return classify(r.row.Scan(dest...)) }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

// migrations are the migrations Open applies.
func (db *DB) migrations() fs.FS {
	if db.migrateTo > 0 {
		return sqlstore.UpTo(migrations, db.migrateTo)
	}
	return migrations
}
