package sabot_test

import (
	"testing"

	"sabot"
)

// Stores made of the interfaces they embed: each provides those.
type (
	bareStore   struct{ sabot.Store }
	walletStore struct {
		sabot.Store
		sabot.Outbox
		sabot.WriteChecker
	}
	clusterStore struct {
		sabot.Store
		sabot.Cluster
		sabot.Revoker
		sabot.CommitObserver
	}
)

// TestCapabilitiesOf: a store provides the optional parts whose interfaces
// it implements, and no other; a set names them in order.
func TestCapabilitiesOf(t *testing.T) {
	for _, c := range []struct {
		s    sabot.Store
		want sabot.Capability
		name string
	}{
		{nil, 0, "none"},
		{bareStore{}, 0, "none"},
		{walletStore{}, sabot.CapOutbox | sabot.CapWriteCheck, "outbox, write check"},
		{clusterStore{}, sabot.CapCluster | sabot.CapRevocations | sabot.CapCommits, "cluster, commit observer, revocations"},
	} {
		got := sabot.CapabilitiesOf(c.s)
		if got != c.want || got.String() != c.name {
			t.Errorf("%T provides %s (%d), want %s (%d)", c.s, got, got, c.name, c.want)
		}
	}
	set := sabot.CapOutbox | sabot.CapCare
	if !set.Has(sabot.CapOutbox) || !set.Has(sabot.CapOutbox|sabot.CapCare) || set.Has(sabot.CapOutbox|sabot.CapCluster) {
		t.Errorf("Has on %s is wrong", set)
	}
}
