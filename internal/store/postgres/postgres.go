// Package postgres is the sabot.Store in PostgreSQL, through pgx and its
// connection pool.
//
// Read-write transactions run at READ COMMITTED: the store takes the row
// locks it needs (an account's row for its balance, a table's row for the
// next Seq) with the UPDATE that changes the row, and every later statement
// of the transaction sees what committed before it. Read-only transactions
// run at REPEATABLE READ: one snapshot. A deadlock or serialization failure
// is retried. Appends go through the store's group commit (sqlstore): half
// the pool's connections (at most 4) are writers, each committing the appends
// of its share of the tables together, on a connection of its own.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"sabot"
	"sabot/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is a sabot.Store in a PostgreSQL database.
type DB struct {
	// DSN is a postgres:// or postgresql:// URL. Its parameters reach the
	// server: search_path=NAME puts the store in that schema.
	DSN string
	// Now is the clock that stamps records.
	Now func() time.Time

	// ReadOnly opens the store for reading only: its migrations are
	// checked, never applied, and a write fails (EUNAVAILABLE) before it
	// reaches the server. A hot standby is opened so.
	ReadOnly bool
	// ReadOnlyOnStandby makes Open open read-only a server that cannot
	// write (a hot standby in recovery, or default_transaction_read_only):
	// the read-only commands' way (store.OpenRead).
	ReadOnlyOnStandby bool

	*sqlstore.Store
	migrateTo int64 // tests: apply the migrations up to this version only (0: all)
	pool      *pgxpool.Pool
	// direct is the configuration of the revocations' listener: the
	// pool's, or behind PgBouncer a connection to PostgreSQL itself
	// (pooler.go).
	direct *pgx.ConnConfig
}

var _ sabot.Store = (*DB)(nil)

// Capabilities are the optional parts (sabot.Capability) that the PostgreSQL store: every optional part, revocations to the other nodes included (revoke.go). Its tests hold it to what the type implements.
const Capabilities = sabot.CapCare | sabot.CapOutbox | sabot.CapDevices | sabot.CapCluster | sabot.CapCommits | sabot.CapWriteCheck | sabot.CapRevocations | sabot.CapRollups

// NewDB returns a DB for a DSN on the real clock; Open opens it.
func NewDB(dsn string) *DB {
	return &DB{DSN: dsn, Now: time.Now}
}

// migrationLock keeps two processes opening the same schema from applying a
// migration twice: it is held until the migration's transaction ends.
// It waits as long as another's migration takes (an index built on a big
// table may take minutes): the session's lock_timeout does not apply.
const migrationLock = `SET LOCAL lock_timeout = 0; SELECT pg_advisory_xact_lock(hashtext('sabot migrations ' || current_schema()))`

// Open connects and applies the migrations the database has not had yet. A
// DSN that does not parse is EINVALID; a server that cannot be reached is
// EINTERNAL.
func (db *DB) Open(ctx context.Context) error {
	cfg, pooled, err := parseDSN(db.DSN)
	if err != nil {
		return err
	}
	db.direct = pooled.direct
	if db.direct == nil {
		db.direct = cfg.ConnConfig.Copy()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return sabot.Internal(err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return sabot.Internal(fmt.Errorf("postgres: %w", err))
	}
	now := db.Now
	if now == nil {
		now = time.Now
	}
	if pooled.transaction {
		if err := checkPooledDefaults(ctx, pool); err != nil {
			pool.Close()
			return err
		}
	}
	if db.ReadOnlyOnStandby && !db.ReadOnly {
		var ro string
		if err := pool.QueryRow(ctx, `SHOW transaction_read_only`).Scan(&ro); err != nil {
			pool.Close()
			return sabot.Internal(fmt.Errorf("postgres: %w", err))
		}
		db.ReadOnly = ro == "on"
	}
	c := &conn{pool: pool, readOnly: db.ReadOnly}
	if db.ReadOnly {
		if err := sqlstore.CheckMigrations(ctx, c, db.migrations(), "migrations"); err != nil {
			pool.Close()
			if sabot.ErrorCode(err) == sabot.EUNAVAILABLE {
				return err
			}
			return sabot.Internal(fmt.Errorf("postgres: %w", err))
		}
	} else if err := sqlstore.Migrate(ctx, c, db.migrations(), "migrations", migrationLock); err != nil {
		pool.Close()
		return sabot.Internal(fmt.Errorf("postgres: %w", err))
	}
	db.pool, db.Store = pool, sqlstore.New(c, now, sqlstore.Config{Writers: writers(cfg.MaxConns), Clock: clock})
	return nil
}

// A node paused in the middle of a transaction (a GC stall, a SIGSTOP, a
// lost network) keeps the row locks it took: the table rows of its batch of
// appends, the accounts of its players. Others waiting for them would wait
// as long as it sleeps — a table's takeover included. The server ends such
// a transaction itself (the node's next statement finds its connection
// closed, and its appends were fenced anyway), and no statement waits for a
// lock for ever. A DSN naming either parameter sets it otherwise (0: none).
var sessionDefaults = map[string]string{
	// Between two statements of one transaction the store never waits on
	// anything but its own CPU: two seconds idle is a node that stopped.
	"idle_in_transaction_session_timeout": "2000",
	// A lock held longer than that by a live session is a fault; the
	// statement fails (EUNAVAILABLE) rather than hang its caller.
	"lock_timeout": "5000",
}

// poolConfig parses a DSN and adds the session defaults it does not set.
func poolConfig(dsn string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "bad PostgreSQL DSN: %v", err)
	}
	for k, v := range sessionDefaults {
		if _, ok := cfg.ConnConfig.RuntimeParams[k]; !ok {
			cfg.ConnConfig.RuntimeParams[k] = v
		}
	}
	return cfg, nil
}

// clock is the database's clock in microseconds: the nodes' leases are timed
// by it, whatever the nodes' own clocks say.
const clock = `(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT`

// writers is how many group-commit writers a pool of n connections gets:
// they commit side by side, as PostgreSQL allows, and leave half the pool to
// the reads and the other writes.
func writers(n int32) int {
	return int(min(max(n/2, 1), 4))
}

// Close closes the pool's connections, after the batch of appends being
// committed; appends still queued fail.
func (db *DB) Close() error {
	if db.pool != nil {
		db.Store.Close()
		db.pool.Close()
	}
	return nil
}

// conn is the sqlstore.Conn of a pool.
type conn struct {
	pool     *pgxpool.Pool
	readOnly bool // the store was opened read-only: no read-write transaction
}

// errReadOnly is a write asked of a store opened read-only.
var errReadOnly = &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "the store is open read-only (a standby): this needs the primary"}

// IsReadOnly reports whether the store was opened read-only (store.ReadOnly).
func (db *DB) IsReadOnly() bool { return db.ReadOnly }

var (
	readWrite = pgx.TxOptions{IsoLevel: pgx.ReadCommitted, AccessMode: pgx.ReadWrite}
	readOnly  = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
)

func (c *conn) InTx(ctx context.Context, ro bool, fn func(sqlstore.Tx) error) error {
	opts := readWrite
	if ro {
		opts = readOnly
	} else if c.readOnly {
		return errReadOnly
	}
	tx, err := c.pool.BeginTx(ctx, opts)
	if err != nil {
		return c.onLost(lostBefore(ctx, nil, classify(err)))
	}
	return c.onLost(runTx(ctx, tx, fn))
}

// onLost closes the pool's connections when one was lost: a server that
// dropped one (restarted, replaced by its standby) dropped them all, and
// the transaction tried again must not draw another dead one. Those in
// use close as they come back.
func (c *conn) onLost(err error) error {
	if !errors.Is(err, sqlstore.ErrLost) && !errors.Is(err, sqlstore.ErrCommitUnknown) {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "25P03" {
		return err // the server ended that session only (it idled): the others live
	}
	c.pool.Reset()
	return err
}

// runTx runs fn in tx and commits it, the errors of a lost connection or
// of a transaction the server ended marked (lostBefore, lostAtCommit).
func runTx(ctx context.Context, tx pgx.Tx, fn func(sqlstore.Tx) error) error {
	if err := fn(pgTx{tx}); err != nil {
		tx.Rollback(ctx)
		return lostBefore(ctx, tx.Conn(), err)
	}
	if err := tx.Commit(ctx); err != nil {
		return lostAtCommit(ctx, tx.Conn(), classify(err))
	}
	return nil
}

// The SQLSTATEs of a transaction the server ended or of a server that is
// going or not there yet: the transaction was not written.
func endedByServer(code string) bool {
	switch code {
	case "25P03", // idle_in_transaction_session_timeout
		"57P01", "57P02", "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
		"25006": // read_only_sql_transaction: a primary that is a standby now
		return true
	}
	return strings.HasPrefix(code, "08") // connection exceptions
}

// lost reports whether err is a lost connection or a transaction the
// server ended (c, if not nil, is the connection it ran on).
func lost(ctx context.Context, c *pgx.Conn, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, sqlstore.ErrRetry) || errors.Is(err, sqlstore.ErrUnique) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return endedByServer(pe.Code)
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		pgconn.SafeToRetry(err) || (c != nil && c.IsClosed())
}

// unavailableRetry is the retry hint of a database that is not there now
// (a primary being replaced takes seconds).
const unavailableRetry = time.Second

// lostBefore marks an error before the commit: nothing was written, the
// transaction may be run again (sqlstore.ErrLost).
func lostBefore(ctx context.Context, c *pgx.Conn, err error) error {
	if !lost(ctx, c, err) {
		return err
	}
	return fmt.Errorf("%w: %w", sqlstore.ErrLost, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: unavailableRetry,
		Message: "the database is unavailable (its connection was lost, or a primary is being replaced): try again", Cause: err})
}

// lostAtCommit marks an error of the commit itself: written or not, it is
// not known (sqlstore.ErrCommitUnknown).
func lostAtCommit(ctx context.Context, c *pgx.Conn, err error) error {
	if !lost(ctx, c, err) {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code != "" && !strings.HasPrefix(pe.Code, "08") {
		// The server answered the COMMIT with an error: not written.
		return lostBefore(ctx, c, err)
	}
	return fmt.Errorf("%w: %w", sqlstore.ErrCommitUnknown, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: unavailableRetry,
		Message: "the database connection was lost at the commit: send the command again under its command ID", Cause: err})
}

// Writer gives a group-commit writer a connection of its own, taken from
// the pool when it first writes and taken again if it breaks.
func (c *conn) Writer() (sqlstore.Conn, func()) {
	w := &writerConn{c: c}
	return w, w.release
}

// writerConn is the Conn of a group-commit writer: its read-write
// transactions run on one connection, its reads on the pool.
type writerConn struct {
	c  *conn
	pc *pgxpool.Conn // nil until the first write, or after it broke
}

func (w *writerConn) InTx(ctx context.Context, ro bool, fn func(sqlstore.Tx) error) (err error) {
	if ro {
		return w.c.InTx(ctx, true, fn)
	}
	if w.c.readOnly {
		return errReadOnly
	}
	if w.pc == nil {
		pc, err := w.c.pool.Acquire(ctx)
		if err != nil {
			return w.c.onLost(lostBefore(ctx, nil, classify(err)))
		}
		w.pc = pc
	}
	defer func() {
		if w.pc.Conn().IsClosed() || errors.Is(err, sqlstore.ErrLost) || errors.Is(err, sqlstore.ErrCommitUnknown) {
			w.release()
		}
	}()
	tx, err := w.pc.BeginTx(ctx, readWrite)
	if err != nil {
		return w.c.onLost(lostBefore(ctx, w.pc.Conn(), classify(err)))
	}
	return w.c.onLost(runTx(ctx, tx, fn))
}

func (w *writerConn) Writer() (sqlstore.Conn, func()) { return w, func() {} }

func (w *writerConn) release() {
	if w.pc != nil {
		w.pc.Release()
		w.pc = nil
	}
}

// classify marks the errors sqlstore acts on.
func classify(err error) error {
	var e *pgconn.PgError
	if !errors.As(err, &e) {
		return err
	}
	switch e.Code {
	case "23505": // unique_violation
		return fmt.Errorf("%w: %w", sqlstore.ErrUnique, err)
	case "40001", "40P01": // serialization_failure, deadlock_detected
		return fmt.Errorf("%w: %w", sqlstore.ErrRetry, err)
	case "55P03": // lock_not_available: lock_timeout
		return &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "the database is busy: try again", Cause: err}
	}
	return err
}

type pgTx struct{ tx pgx.Tx }

func (t pgTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, query, args...)
	if err != nil {
		return 0, classify(err)
	}
	return tag.RowsAffected(), nil
}

func (t pgTx) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return pgRow{t.tx.QueryRow(ctx, query, args...)}
}

func (t pgTx) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := t.tx.Query(ctx, query, args...)
	if err != nil {
		return nil, classify(err)
	}
	return rows, nil
}

var _ sqlstore.Copier = pgTx{}

// CopyFrom writes the rows by COPY FROM STDIN in binary, in the
// transaction: the bulk load's way (sqlstore.Copier).
func (t pgTx) CopyFrom(ctx context.Context, table string, cols []string, n int, row func(j int, dst []any) []any) error {
	// pgx encodes a row before it asks for the next: one slice serves.
	var vals []any
	_, err := t.tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromSlice(n, func(j int) ([]any, error) {
		vals = row(j, vals[:0])
		return vals, nil
	}))
	return classify(err)
}

// NextIDs takes n values of the sequence behind table's identity column
// col, in one statement.
func (t pgTx) NextIDs(ctx context.Context, table, col string, n int) ([]int64, error) {
	rows, err := t.tx.Query(ctx, `SELECT nextval(pg_get_serial_sequence($1, $2)) FROM generate_series(1, $3)`, table, col, n)
	if err != nil {
		return nil, classify(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, classify(err)
	}
	return ids, nil
}

type pgRow struct{ row pgx.Row }

func (r pgRow) Scan(dest ...any) error { return classify(r.row.Scan(dest...)) }

// migrations are the migrations Open applies.
func (db *DB) migrations() fs.FS {
	if db.migrateTo > 0 {
		return sqlstore.UpTo(migrations, db.migrateTo)
	}
	return migrations
}
