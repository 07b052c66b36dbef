// Package sqlstore is the sabot.Store written once in SQL that both SQLite
// and PostgreSQL accept. A driver supplies a Conn (transactions, and its own
// errors translated to ErrUnique and ErrRetry) and its schema as migrations;
// everything else, every query and every guarantee, lives here, the group
// commit of appends included (group.go).
//
// The SQL sticks to what the two share: $1-style parameters (modernc.org/sqlite
// binds $N to the Nth argument), RETURNING, ON CONFLICT DO NOTHING, partial
// unique indexes, and times as BIGINT microseconds since the Unix epoch.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"sabot"
)

// ErrUnique is what a driver's Tx returns, wrapped, for a unique constraint
// violation.
var ErrUnique = errors.New("unique constraint violation")

// ErrRetry is what a driver returns, wrapped, when a transaction lost a race
// it may win on a second try (a deadlock, a serialization failure, a busy
// database). The transaction has been rolled back.
var ErrRetry = errors.New("transaction may be retried")

// ErrLost is what a driver returns, wrapped (with an EUNAVAILABLE
// sabot.Error), when the database ended a transaction before its commit or
// its connection was lost before it: nothing of it was written, and it is
// tried once more, on another connection (a primary that moved, a session
// the server ended after it idled: SQLSTATE 25P03, 57P01, 08xxx). Failing
// again, its caller is answered EUNAVAILABLE, never EINTERNAL.
var ErrLost = errors.New("transaction lost before its commit")

// ErrCommitUnknown is what a driver returns, wrapped (with an EUNAVAILABLE
// sabot.Error), when the connection was lost during the commit: the
// transaction may or may not have been written. It is not tried again (an
// append without a command ID would be written twice); its caller is
// answered EUNAVAILABLE and sends the command again under its command ID
// (applied once) or reads the state again.
var ErrCommitUnknown = errors.New("transaction's commit lost: its outcome is not known")

// A Row scans one row. Scan returns sql.ErrNoRows (or an error wrapping it)
// when there is none.
type Row interface {
	Scan(dest ...any) error
}

// Rows iterates over the rows of a query.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Tx is a transaction in progress.
type Tx interface {
	Exec(ctx context.Context, query string, args ...any) (rowsAffected int64, err error)
	QueryRow(ctx context.Context, query string, args ...any) Row
	Query(ctx context.Context, query string, args ...any) (Rows, error)
}

// Conn is a driver's connection pool.
type Conn interface {
	// InTx runs fn in a transaction and commits it if fn returns nil, or
	// rolls it back. A read-write transaction must serialize with the other
	// writers where the database cannot do it row by row (SQLite: BEGIN
	// IMMEDIATE); PostgreSQL runs it at READ COMMITTED, where every
	// statement sees the rows committed before it started, and the store
	// takes the row locks it needs. A read-only transaction sees one
	// snapshot throughout.
	InTx(ctx context.Context, readOnly bool, fn func(Tx) error) error
	// Writer returns the Conn a group-commit writer runs its transactions
	// on: the same database, its read-write transactions on a connection
	// kept for the writer where the driver can, so that a writer never
	// queues with the readers for a connection of the pool. release gives
	// the connection back when the writer stops.
	Writer() (w Conn, release func())
}

// Store is the sabot.Store over a Conn.
type Store struct {
	conn       Conn
	now        func() time.Time
	clockSQL   string // Config.Clock
	positional bool   // Config.Positional
	oneWriter  bool   // Config.OneWriter
	group      *group
}

var _ sabot.Store = (*Store)(nil)
var _ sabot.WriteChecker = (*Store)(nil)

// New returns the store over conn, its group-commit writers started (Close
// stops them); now is the clock that stamps records.
func New(conn Conn, now func() time.Time, cfg Config) *Store {
	s := &Store{conn: conn, now: now, clockSQL: cfg.Clock, positional: cfg.Positional, oneWriter: cfg.OneWriter}
	s.startGroup(cfg)
	return s
}

// maxTries bounds the retries of a transaction that lost a race (ErrRetry).
const maxTries = 5

// write runs fn in a read-write transaction, retried when the driver says
// it may be. fn must not change anything outside the database before the
// transaction commits: it may run more than once.
func (s *Store) write(ctx context.Context, fn func(Tx) error) error {
	return writeOn(ctx, s.conn, fn)
}

// writeOn is write on a given Conn.
func writeOn(ctx context.Context, conn Conn, fn func(Tx) error) error {
	var err error
	lost := false
	for try := 0; try < maxTries; try++ {
		err = conn.InTx(ctx, false, fn)
		if errors.Is(err, ErrLost) && !lost && ctx.Err() == nil {
			lost = true // once: the next connection may reach the new primary
			try--
			continue
		}
		if !errors.Is(err, ErrRetry) {
			return err
		}
	}
	return err
}

// read runs fn in a read-only transaction: one snapshot.
func (s *Store) read(ctx context.Context, fn func(Tx) error) error {
	return s.conn.InTx(ctx, true, fn)
}

// stamp is a time as stored: microseconds since the Unix epoch.
func stamp(t time.Time) int64 { return t.UnixMicro() }

// unstamp is the time of a stored stamp, in UTC.
func unstamp(us int64) time.Time { return time.UnixMicro(us).UTC() }

// clock returns t, or now when t is zero, at the precision it is stored with.
func (s *Store) clock(t time.Time) time.Time {
	if t.IsZero() {
		t = s.now()
	}
	return unstamp(stamp(t))
}

// fail turns an error from the database into a sabot error: sabot errors
// pass through, anything else is internal.
func fail(err error) error {
	var e *sabot.Error
	if err == nil || errors.As(err, &e) {
		return err
	}
	return sabot.Internal(err)
}

// noRows reports whether err says a query found no row.
func noRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// errRollback ends CheckWritable's transaction without committing it.
var errRollback = errors.New("rolled back on purpose")

// CheckWritable proves the database accepts writes now: it rewrites a row
// in a transaction that it rolls back (sabot.WriteChecker). A database
// opened read-only (a file without write permission, a replica) fails it.
func (s *Store) CheckWritable(ctx context.Context) error {
	err := s.conn.InTx(ctx, false, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE schema_migrations SET applied = applied WHERE version = (SELECT MAX(version) FROM schema_migrations)`); err != nil {
			return err
		}
		return errRollback
	})
	if errors.Is(err, errRollback) {
		return nil
	}
	return err
}
