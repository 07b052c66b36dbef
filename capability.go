package sabot

import "strings"

// Capability is an optional part of a Store: an interface beside Store
// that a store implements or not, and that a feature of the server needs.
// A set of them is a Capability too (their bits together).
//
// CapabilitiesOf is the one place that finds them (each store's tests pin
// its set); the server asks it once, at start, and refuses a configuration
// that needs what its store lacks, with the reason in a line
// (internal/server, capabilities.go). A new optional interface is a new
// capability here, with its row in capabilities.
type Capability uint16

// The capabilities.
const (
	// CapCare: Care, the players' limits, exclusions and reality checks on
	// the built-in wallets (docs/players.md).
	CapCare Capability = 1 << iota
	// CapOutbox: Outbox, the calls to the operator's wallet, written with
	// the rounds that cause them (docs/wallet.md).
	CapOutbox
	// CapDevices: Devices, the card readers of the tables dealt from a
	// physical shoe (docs/live.md).
	CapDevices
	// CapCluster: Cluster, the nodes on one store, their leases and the
	// tables' epochs (docs/server.md).
	CapCluster
	// CapCommits: CommitObserver, the group commit's figures (/metrics).
	CapCommits
	// CapWriteCheck: WriteChecker, whether the store accepts writes
	// (start, /readyz).
	CapWriteCheck
	// CapRevocations: Revoker, the sessions ended and the players
	// excluded, told to the other nodes.
	CapRevocations
	// CapRollups: Rollups, the reports' sums by table and hour, kept so
	// that a report over a long period reads hours (docs/pit.md).
	CapRollups
)

// capabilities are the capabilities in order: each its name and whether a
// store implements its interface.
var capabilities = []struct {
	c    Capability
	name string
	has  func(Store) bool
}{
	{CapCare, "care", func(s Store) bool { _, ok := s.(Care); return ok }},
	{CapOutbox, "outbox", func(s Store) bool { _, ok := s.(Outbox); return ok }},
	{CapDevices, "devices", func(s Store) bool { _, ok := s.(Devices); return ok }},
	{CapCluster, "cluster", func(s Store) bool { _, ok := s.(Cluster); return ok }},
	{CapCommits, "commit observer", func(s Store) bool { _, ok := s.(CommitObserver); return ok }},
	{CapWriteCheck, "write check", func(s Store) bool { _, ok := s.(WriteChecker); return ok }},
	{CapRevocations, "revocations", func(s Store) bool { _, ok := s.(Revoker); return ok }},
	{CapRollups, "rollups", func(s Store) bool { _, ok := s.(Rollups); return ok }},
}

// CapabilitiesOf is the set of capabilities the store s provides.
func CapabilitiesOf(s Store) Capability {
	var set Capability
	for _, c := range capabilities {
		if s != nil && c.has(s) {
			set |= c.c
		}
	}
	return set
}

// Has reports whether the set holds every capability of c.
func (set Capability) Has(c Capability) bool { return set&c == c }

// String names the capabilities of the set, in order, separated by ", "
// ("none" for the empty set).
func (set Capability) String() string {
	var names []string
	for _, c := range capabilities {
		if set&c.c != 0 {
			names = append(names, c.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
