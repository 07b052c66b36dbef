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

// EventLogName names the table row whose log is the significant-event log
// of everything that belongs to no table: credits, tables created,
// administrators, the nodes of a cluster.
const EventLogName = "significant events"

// EventLog is a new row of the significant-event log (Store.CreateTable).
// Its stored form is a table row without a profile, which no node serves:
// EventLog and IsEventLog are the one place that knows it.
func EventLog() *Table { return &Table{Name: EventLogName} }

// IsEventLog reports whether t is the row of the significant-event log,
// not a table.
func (t *Table) IsEventLog() bool { return t.Profile == "" }
