package postgres

import (
	"context"

	"sabot/internal/store/sqlstore"
)

// MigrateTo makes Open apply the migrations up to a version only: a
// database as an older sabot left it.
func MigrateTo(db *DB, version int64) { db.migrateTo = version }

var PoolConfig = poolConfig

// InTx runs fn in a read-write transaction of the store's pool, as the
// store runs its own.
func InTx(db *DB, ctx context.Context, fn func(sqlstore.Tx) error) error {
	return (&conn{pool: db.pool}).InTx(ctx, false, fn)
}
