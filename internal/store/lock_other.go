//go:build !unix

package store

import (
	"errors"
	"os"
)

var errLocked = errors.New("locked")

// flock is not available here: the lock is not taken (one process per
// SQLite file is then the operator's to keep).
func flock(f *os.File) error { return nil }
