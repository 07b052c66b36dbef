package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"sabot"
)

// Migrate applies the migrations in dir of fsys that the database has not
// had yet, in order, each in its own transaction with the row that records
// it: a migration is applied whole or not at all. Files are named
// NNN_what.sql; NNN is the version. lock, if not empty, is a statement run
// first in each transaction so that two processes opening the same database
// do not both apply a migration (PostgreSQL: an advisory lock; SQLite's
// BEGIN IMMEDIATE already serializes).
func Migrate(ctx context.Context, conn Conn, fsys fs.FS, dir, lock string) error {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return err
	}
	type migration struct {
		version int64
		name    string
	}
	var ms []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || v < 1 {
			return fmt.Errorf("migration %s: the name must start with a version, NNN_", base)
		}
		ms = append(ms, migration{v, name})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return fmt.Errorf("migrations %s and %s have the same version", ms[i-1].name, ms[i].name)
		}
	}
	for _, m := range ms {
		body, err := fs.ReadFile(fsys, m.name)
		if err != nil {
			return err
		}
		// A transaction the database ended or a connection lost before
		// the commit (EUNAVAILABLE: under CPU starvation PostgreSQL ends a
		// transaction idle past idle_in_transaction_session_timeout) is
		// tried again: the migration applies whole or not at all, and the
		// next try finds it recorded if it did.
		for try := 1; ; try++ {
			err = migrateOne(ctx, conn, m.version, m.name, string(body), lock)
			if err == nil || try == migrateTries || sabot.ErrorCode(err) != sabot.EUNAVAILABLE || ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			return fmt.Errorf("migration %s: %w", path.Base(m.name), err)
		}
	}
	return nil
}

// migrateTries bounds the tries of one migration whose transaction was
// lost.
const migrateTries = 3

// migrateOne applies one migration in its own transaction, unless the
// database has it already.
func migrateOne(ctx context.Context, conn Conn, version int64, name, body, lock string) error {
	return conn.InTx(ctx, false, func(tx Tx) error {
		if lock != "" {
			if _, err := tx.Exec(ctx, lock); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version BIGINT PRIMARY KEY,
				name    TEXT   NOT NULL,
				applied BIGINT NOT NULL
			)`); err != nil {
			return err
		}
		var n int64
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, version).Scan(&n); err != nil {
			return err
		} else if n > 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, body); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)`,
			version, path.Base(name), stamp(time.Now()))
		return err
	})
}

// UpTo is fsys with only the migrations up to a version: a database left
// at an older version, for the tests of a migration.
func UpTo(fsys fs.FS, version int64) fs.FS { return upTo{fsys, version} }

type upTo struct {
	fs.FS
	version int64
}

func (u upTo) Glob(pattern string) ([]string, error) {
	names, err := fs.Glob(u.FS, pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range names {
		num, _, _ := strings.Cut(path.Base(name), "_")
		if v, err := strconv.ParseInt(num, 10, 64); err == nil && v <= u.version {
			out = append(out, name)
		}
	}
	return out, nil
}

// CheckMigrations is Migrate's check without its writes, for a store
// opened read-only (a hot standby): every migration in dir of fsys must
// have been applied already. One missing is EUNAVAILABLE with the versions
// the database has and needs: the code is newer than the schema (a standby
// behind its primary, or a primary no sabot of this version opened yet).
// Versions the database has beyond the code's are allowed: the migrations
// only add.
func CheckMigrations(ctx context.Context, conn Conn, fsys fs.FS, dir string) error {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return err
	}
	have := map[int64]bool{}
	var top int64
	err = conn.InTx(ctx, true, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var v int64
			if err := rows.Scan(&v); err != nil {
				return err
			}
			have[v] = true
			top = max(top, v)
		}
		return rows.Err()
	})
	if err != nil {
		return sabot.Errorf(sabot.EUNAVAILABLE, "the store is read-only and its schema cannot be read (no sabot ever opened it read-write?): %v", err)
	}
	var missing []string
	for _, name := range names {
		base := path.Base(name)
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return fmt.Errorf("migration %s: the name must start with a version, NNN_", base)
		}
		if !have[v] {
			missing = append(missing, strings.TrimSuffix(base, ".sql"))
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return sabot.Errorf(sabot.EUNAVAILABLE, "the store is read-only and its schema is behind this sabot's: it is at migration %d and lacks %s; open it read-write once (sabot serve on the primary) and let the standby replay it", top, strings.Join(missing, ", "))
	}
	return nil
}
