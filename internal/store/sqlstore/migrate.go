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
		err = conn.InTx(ctx, false, func(tx Tx) error {
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
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, m.version).Scan(&n); err != nil {
				return err
			} else if n > 0 {
				return nil
			}
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)`,
				m.version, path.Base(m.name), stamp(time.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", path.Base(m.name), err)
		}
	}
	return nil
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
