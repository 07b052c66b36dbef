package postgres

// MigrateTo makes Open apply the migrations up to a version only: a
// database as an older sabot left it.
func MigrateTo(db *DB, version int64) { db.migrateTo = version }

var PoolConfig = poolConfig
