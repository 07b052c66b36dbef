package server_test

import (
	"path/filepath"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/server"
	sabotwallet "sabot/internal/wallet"
)

// A configuration that needs an optional part of the store that the store
// lacks does not start, and says which in a line: the operator's wallet
// needs the outbox; a store shared by several nodes needs the cluster and
// the revocations (SQLite has no revocations: before, a shared server on
// it started and ended sessions on its node alone). The same store serves
// where the configuration does not need it.
func TestOpenRefusesAStoreWithoutWhatItNeeds(t *testing.T) {
	t.Parallel()
	sqlite := openStore(t, filepath.Join(t.TempDir(), "sabot.db"))
	for _, c := range []struct {
		name string
		srv  *server.Server
		want string // "" for a server that starts
	}{
		{"wallet-on-memory", &server.Server{Store: newMemStore(), Currency: "EUR", Wallet: &sabotwallet.Client{URL: "http://127.0.0.1:1", Secret: []byte("0123456789abcdef")}},
			"server: the operator's wallet (--wallet) needs a store with the outbox capability, which *server_test.memStore lacks (it has: none)"},
		{"shared-on-memory", &server.Server{Store: newMemStore(), Shared: true},
			"server: a store shared by several nodes needs a store with the cluster capability, which *server_test.memStore lacks (it has: none)"},
		{"shared-on-sqlite", &server.Server{Store: sqlite, Shared: true},
			"server: a store shared by several nodes needs a store with the revocations capability, which *sqlite.DB lacks (it has: care, outbox, devices, cluster, commit observer, write check, rollups)"},
		{"memory", &server.Server{Store: newMemStore()}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.srv.Open()
			if err == nil {
				c.srv.Close()
				if c.want != "" {
					t.Fatalf("the server started; want %q", c.want)
				}
				return
			}
			if c.want == "" || err.Error() != c.want || strings.Contains(err.Error(), "\n") {
				t.Errorf("Open: %v\nwant: %s", err, c.want)
			}
		})
	}
	if got := sabot.CapabilitiesOf(newMemStore()); got != 0 {
		t.Errorf("the test's memory store provides %s", got)
	}
}
