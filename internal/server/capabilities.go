package server

import (
	"fmt"

	"sabot"
)

// What the server needs of its store's optional parts (sabot.Capability).
// A configuration that needs one the store lacks is refused at start
// (Open), with the reason in a line; one that only a feature uses is named
// in the start's log where the store lacks it, with what is off.

// storeNeeds are the capabilities a configuration needs.
var storeNeeds = []struct {
	c    sabot.Capability
	what string // the configuration, as the refusal names it
	on   func(*Server) bool
}{
	{sabot.CapOutbox, "the operator's wallet (--wallet)", func(s *Server) bool { return s.Wallet != nil }},
	{sabot.CapCluster, "a store shared by several nodes", func(s *Server) bool { return s.Shared }},
	{sabot.CapRevocations, "a store shared by several nodes", func(s *Server) bool { return s.Shared }},
}

// storeFeatures are the capabilities without which the server runs with a
// feature off.
var storeFeatures = []struct {
	c   sabot.Capability
	off string
}{
	{sabot.CapCare, "the players' limits, exclusions and reality checks"},
	{sabot.CapDevices, "the card readers of tables dealt from a physical shoe"},
	{sabot.CapCommits, "the group commit's metrics"},
	{sabot.CapWriteCheck, "the check that the store accepts writes (start, /readyz)"},
	{sabot.CapRollups, "the reports' rollups by hour and day (a long period's report reads every round)"},
}

// checkStore refuses a configuration whose store lacks a capability it
// needs, and logs each feature off for want of one.
func (s *Server) checkStore() error {
	have := sabot.CapabilitiesOf(s.Store)
	for _, n := range storeNeeds {
		if n.on(s) && !have.Has(n.c) {
			return fmt.Errorf("server: %s needs a store with the %s capability, which %T lacks (it has: %s)", n.what, n.c, s.Store, have)
		}
	}
	for _, f := range storeFeatures {
		if !have.Has(f.c) {
			s.logger().Warn("the store lacks a capability: a feature is off", "capability", f.c.String(), "off", f.off)
		}
	}
	return nil
}
