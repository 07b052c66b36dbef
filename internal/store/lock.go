package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"sabot"
)

// SQLitePath is the file a SQLite DSN names ("" for PostgreSQL or an
// in-memory database).
func SQLitePath(dsn string) string {
	if IsPostgres(dsn) {
		return ""
	}
	path, _, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	if path == ":memory:" {
		return ""
	}
	return path
}

// Lock makes the process the one server of a SQLite file (two
// processes on one file both served every table and dealt rounds twice):
// it holds an exclusive lock on the file DB.lock beside the database for as
// long as the process lives or until release, with its process ID written
// in it. A second process is refused with one line naming the file and the
// process that holds it. The lock is the kernel's (flock), so a process
// killed with -9 leaves no stale lock. PostgreSQL and in-memory databases
// need none: release is a no-op. Readers (`sabot ledger check`, `sabot
// events`) take no lock.
func Lock(dsn string) (release func(), err error) {
	path := SQLitePath(dsn)
	if path == "" {
		return func() {}, nil
	}
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if err := flock(f); err != nil {
		holder := "another process"
		if b, rerr := os.ReadFile(name); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil && pid > 0 {
				holder = "process " + strconv.Itoa(pid)
			}
		}
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, sabot.Errorf(sabot.ECONFLICT, "%s is served by %s (it holds %s): one process per SQLite file; several nodes share PostgreSQL", path, holder, name)
		}
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		f.Truncate(0)
		f.Close() // closing the file releases the lock
	}, nil
}
