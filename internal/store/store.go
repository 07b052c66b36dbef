// Package store opens the sabot.Store a DSN names: PostgreSQL for a
// postgres:// or postgresql:// URL, otherwise a SQLite file. The drivers are
// the subpackages sqlite and postgres, one SQL implementation (sqlstore) under
// both, and one test suite (storetest) over both.
package store

import (
	"context"
	"strings"

	"sabot"
	"sabot/internal/store/postgres"
	"sabot/internal/store/sqlite"
)

// DefaultDSN is the database of `sabot serve` and `sabot ledger check` when
// none is given: a SQLite file in the current directory.
const DefaultDSN = "sabot.db"

// IsPostgres reports whether a DSN names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the store a DSN names, on the real clock, with its migrations
// applied. A DSN that cannot name a database is EINVALID.
func Open(ctx context.Context, dsn string) (sabot.Store, error) {
	if IsPostgres(dsn) {
		db := postgres.NewDB(dsn)
		if err := db.Open(ctx); err != nil {
			return nil, err
		}
		return db, nil
	}
	db := sqlite.NewDB(dsn)
	if err := db.Open(ctx); err != nil {
		return nil, err
	}
	return db, nil
}

// OpenRead opens the store a DSN names for a command that only reads it
// (sabot report, ledger check, recall, replay, verify, events): as Open
// does, except that a PostgreSQL server that cannot write (a hot standby)
// is opened read-only: its migrations checked, not applied, and a clear
// error (EUNAVAILABLE) if its schema is behind the code's. A SQLite file
// opens as Open opens it.
func OpenRead(ctx context.Context, dsn string) (sabot.Store, error) {
	if IsPostgres(dsn) {
		db := postgres.NewDB(dsn)
		db.ReadOnlyOnStandby = true
		if err := db.Open(ctx); err != nil {
			return nil, err
		}
		return db, nil
	}
	return Open(ctx, dsn)
}

// OpenReadOnly opens a PostgreSQL store read-only whatever the server can
// do (sabot serve's --reports-db: the pit's reports on a replica); a
// SQLite file opens as Open opens it.
func OpenReadOnly(ctx context.Context, dsn string) (sabot.Store, error) {
	if IsPostgres(dsn) {
		db := postgres.NewDB(dsn)
		db.ReadOnly = true
		if err := db.Open(ctx); err != nil {
			return nil, err
		}
		return db, nil
	}
	return Open(ctx, dsn)
}

// ReadOnly reports whether a store was opened read-only: what it holds can
// be read, nothing written (a report's rollup is skipped).
func ReadOnly(s sabot.Store) bool {
	r, ok := s.(interface{ IsReadOnly() bool })
	return ok && r.IsReadOnly()
}
