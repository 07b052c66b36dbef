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
