package sabot

import (
	"time"
)

// Table is a table's configuration.
type Table struct {
	ID       int64
	Name     string
	Profile  string            // a built-in profile name
	Options  map[string]string // options on top of the profile
	TestMode bool              // forced-card dealing allowed; every round marked so
	Created  time.Time
	// Owner, when set at CreateTable, is the node that serves the table
	// from its creation, at epoch 1 (a cluster: no other node can claim it
	// between its creation and its first claim). CreateTable only.
	Owner string
}
