package server

import (
	"bytes"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"sabot"
)

// A forwarded request's client address is trusted only under a valid
// signature of a node: a client cannot choose the address its limits are
// counted under, nor replay a node's header on another request (issue 12).
func TestForwardedAddressSigned(t *testing.T) {
	key, err := NewSeedKey(bytes.Repeat([]byte{7}, SeedKeySize))
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{SeedKey: key, Shared: true, nodes: &nodes{self: sabot.Node{ID: "node-a"}}}
	req := func(method, path, header string) string {
		r := httptest.NewRequest(method, path, nil)
		r.RemoteAddr = "127.0.0.1:5555"
		if header != "" {
			r.Header.Set(nodeHeaderName, header)
		}
		return s.clientAddr(r)
	}
	good := s.nodeHeader("198.51.100.7:4242", "POST", "/api/tables/3/act", 1)
	if got := req("POST", "/api/tables/3/act", good); got != "198.51.100.7:4242" {
		t.Fatalf("a node's signed address: %q", got)
	}
	for name, c := range map[string]struct{ method, path, header string }{
		"none":         {"POST", "/api/tables/3/act", ""},
		"another path": {"POST", "/api/tables/4/act", good},
		"another verb": {"GET", "/api/tables/3/act", good},
		"forged":       {"POST", "/api/tables/3/act", "node-a 1 203.0.113.9:1 1 deadbeef"},
		"changed address": {"POST", "/api/tables/3/act",
			replaceField(good, 2, "203.0.113.9:1")},
		"changed hops": {"POST", "/api/tables/3/act", replaceField(good, 3, "0")},
		"garbage":      {"POST", "/api/tables/3/act", "x"},
	} {
		if got := req(c.method, c.path, c.header); got != "127.0.0.1:5555" {
			t.Errorf("%s: the address counted is %q, not the connection's", name, got)
		}
	}
	// Too old: a header sniffed once is not good for long.
	old := time.Now().Add(-2 * nodeHeaderAge).Unix()
	stale := "node-a " + itoa(old) + " 198.51.100.7:4242 1 " + s.nodeMAC("node-a", old, "198.51.100.7:4242", "POST", "/api/tables/3/act", 1)
	if got := req("POST", "/api/tables/3/act", stale); got != "127.0.0.1:5555" {
		t.Errorf("a stale header was trusted: %q", got)
	}
	// Another cluster's key: not trusted.
	other, _ := NewSeedKey(bytes.Repeat([]byte{8}, SeedKeySize))
	o := &Server{SeedKey: other, Shared: true, nodes: &nodes{self: sabot.Node{ID: "node-b"}}}
	if got := req("POST", "/api/tables/3/act", o.nodeHeader("198.51.100.7:4242", "POST", "/api/tables/3/act", 1)); got != "127.0.0.1:5555" {
		t.Errorf("another cluster's node was trusted: %q", got)
	}
}

func replaceField(h string, i int, v string) string {
	f := bytes.Fields([]byte(h))
	f[i] = []byte(v)
	return string(bytes.Join(f, []byte(" ")))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
