package cluster

import (
	"bytes"
	"crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"sabot"
)

// A forwarded request's client address is trusted only under a valid
// signature of a node: a client cannot choose the address its limits are
// counted under, nor replay a node's header on another request,
// nor on the same one: the header is bound to the
// method, path, query, body and receiving node, and its nonce is good once.
func TestForwardedAddressSigned(t *testing.T) {
	const self = "http://10.0.0.2:8080"
	s := &Cluster{Key: bytes.Repeat([]byte{7}, 32), Shared: true, node: &node{self: sabot.Node{ID: "node-a", URL: self},
		hosts: map[string]bool{"127.0.0.1": true}, peers: map[string]sabot.Node{"node-a": {ID: "node-a", URL: self, Live: true}}}}
	req := func(method, target, body, header string) string {
		r := httptest.NewRequest(method, target, strings.NewReader(body))
		r.RemoteAddr = "127.0.0.1:5555"
		if header != "" {
			r.Header.Set(nodeHeaderName, header)
		}
		r = s.verifyNode(r)
		if b, _ := io.ReadAll(r.Body); string(b) != body {
			t.Fatalf("the body after the check: %q, not %q", b, body)
		}
		return ClientAddr(r)
	}
	const path, body = "/api/tables/3/act?x=1", `{"command_id":"c-1","action":"stand","box":1}`
	sign := func(method, target, body, to string) string {
		u, _ := url.Parse(target)
		return s.nodeHeader("198.51.100.7:4242", 1, to, method, u, []byte(body))
	}
	good := sign("POST", path, body, self)
	if got := req("POST", path, body, good); got != "198.51.100.7:4242" {
		t.Fatalf("a node's signed address: %q", got)
	}
	for name, c := range map[string]struct{ method, path, body, header string }{
		"replayed":      {"POST", path, body, good},
		"none":          {"POST", path, body, ""},
		"another path":  {"POST", "/api/tables/4/act?x=1", body, sign("POST", path, body, self)},
		"another query": {"POST", "/api/tables/3/act?x=2", body, sign("POST", path, body, self)},
		"no query":      {"POST", "/api/tables/3/act", body, sign("POST", path, body, self)},
		"another verb":  {"GET", path, body, sign("POST", path, body, self)},
		"another body":  {"POST", path, `{"command_id":"c-1","action":"double","box":1}`, sign("POST", path, body, self)},
		"no body":       {"POST", path, "", sign("POST", path, body, self)},
		"another node":  {"POST", path, body, sign("POST", path, body, "http://10.0.0.3:8080")},
		"forged":        {"POST", path, body, "node-a 1 n 203.0.113.9:1 1 deadbeef"},
		"changed address": {"POST", path, body,
			replaceField(sign("POST", path, body, self), 3, "203.0.113.9:1")},
		"changed nonce": {"POST", path, body, replaceField(sign("POST", path, body, self), 2, "other")},
		"changed hops":  {"POST", path, body, replaceField(sign("POST", path, body, self), 4, "0")},
		"garbage":       {"POST", path, body, "x"},
	} {
		if got := req(c.method, c.path, c.body, c.header); got != "127.0.0.1:5555" {
			t.Errorf("%s: the address counted is %q, not the connection's", name, got)
		}
	}
	// A fresh header for the same request is good: each has its own nonce.
	if got := req("POST", path, body, sign("POST", path, body, self)); got != "198.51.100.7:4242" {
		t.Errorf("a second signed request: %q", got)
	}
	// Too old: a header sniffed once is not good for long.
	old := time.Now().Add(-2 * nodeHeaderAge).Unix()
	f := nodeHeaderFields{node: "node-a", unix: old, nonce: "n-old", addr: "198.51.100.7:4242", hops: 1, to: self,
		method: "POST", path: "/api/tables/3/act", query: "x=1", body: sha256.Sum256([]byte(body))}
	stale := "node-a " + itoa(old) + " n-old 198.51.100.7:4242 1 " + s.nodeMAC(f)
	if got := req("POST", path, body, stale); got != "127.0.0.1:5555" {
		t.Errorf("a stale header was trusted: %q", got)
	}
	// Another cluster's key: not trusted.
	o := &Cluster{Key: bytes.Repeat([]byte{8}, 32), Shared: true, node: &node{self: sabot.Node{ID: "node-b"}}}
	u, _ := url.Parse(path)
	if got := req("POST", path, body, o.nodeHeader("198.51.100.7:4242", 1, self, "POST", u, []byte(body))); got != "127.0.0.1:5555" {
		t.Errorf("another cluster's node was trusted: %q", got)
	}
}

func replaceField(h string, i int, v string) string {
	f := bytes.Fields([]byte(h))
	f[i] = []byte(v)
	return string(bytes.Join(f, []byte(" ")))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// countingBody is a request body that counts the bytes read from it.
type countingBody struct {
	r    io.Reader
	read int
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += n
	return n, err
}

func (b *countingBody) Close() error { return nil }

// stubTables are a node's tables: it serves none.
type stubTables struct{ Tables }

func (stubTables) Serves(int64) bool { return false }

// A made-up Sabot-Node header makes no node read a body (300 connections,
// each with 1 MiB, took the heap from 16 to 444 MB and
// the node lost its lease): the header is looked at only on a connection
// from a live node's address, and only a header whose fields a live node
// could have signed gets its body read — at most what the table's
// handlers take.
func TestNodeHeaderBodyReadOnlyFromNodes(t *testing.T) {
	const self = "http://10.0.0.2:8080"
	s := &Cluster{Key: bytes.Repeat([]byte{7}, 32), Shared: true, node: &node{self: sabot.Node{ID: "node-a", URL: self},
		hosts: map[string]bool{"10.0.0.3": true}, peers: map[string]sabot.Node{"node-b": {ID: "node-b", URL: "http://10.0.0.3:8080", Live: true}}}}
	big := strings.Repeat("x", 1<<20)
	try := func(remote, header string) int {
		b := &countingBody{r: strings.NewReader(big)}
		r := httptest.NewRequest("POST", "/api/tables/3/act", nil)
		r.Body, r.RemoteAddr = b, remote
		r.Header.Set(nodeHeaderName, header)
		r = s.verifyNode(r)
		if ClientAddr(r) != remote {
			t.Fatalf("%s: a made-up header was trusted", remote)
		}
		return b.read
	}
	made := "node-b " + itoa(time.Now().Unix()) + " n1 203.0.113.9:1 1 " + strings.Repeat("0", 64) + " " + strings.Repeat("ab", 32)
	if n := try("198.51.100.7:4242", made); n != 0 {
		t.Errorf("a made-up header from a client's address: %d bytes of its body read before anything was checked", n)
	}
	if n := try("10.0.0.3:4242", made); n > maxForwardBody+1 {
		t.Errorf("from a node's address: %d bytes read, more than a table's handlers take", n)
	}
	unknown := strings.Replace(made, "node-b", "node-z", 1)
	if n := try("10.0.0.3:4242", unknown); n != 0 {
		t.Errorf("a header of no live node: %d bytes read", n)
	}
}

// A request for a table another node owns is authenticated before it is
// forwarded, its body unread, and a forwarded body is
// bounded by what the handlers take.
func TestForwardAuthenticatesFirst(t *testing.T) {
	s := &Cluster{Key: bytes.Repeat([]byte{7}, 32), Shared: true, Tables: stubTables{},
		node: &node{self: sabot.Node{ID: "node-a", URL: "http://10.0.0.2:8080"}, refresh: time.Now().Add(time.Hour),
			owners: map[int64]sabot.Lease{3: {TableID: 3, Node: "node-b", Live: true}},
			peers:  map[string]sabot.Node{"node-b": {ID: "node-b", URL: "http://127.0.0.1:1", Live: true}}}}
	var status int
	s.WriteError = func(w http.ResponseWriter, r *http.Request, err error) {
		status = 0
		switch sabot.ErrorCode(err) {
		case sabot.EUNAUTHORIZED:
			status = http.StatusUnauthorized
		case sabot.EINVALID:
			status = http.StatusRequestEntityTooLarge
		default:
			status = http.StatusServiceUnavailable
		}
		w.WriteHeader(status)
	}
	s.Authenticate = func(r *http.Request) error {
		if r.Header.Get("Authorization") != "Bearer good" {
			return sabot.Errorf(sabot.EUNAUTHORIZED, "log in first")
		}
		return nil
	}
	h := s.Forward(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.Fatal("served here") }))
	send := func(auth string, size int) (int, int) {
		b := &countingBody{r: strings.NewReader(strings.Repeat("x", size))}
		r := httptest.NewRequest("POST", "/api/tables/3/act", nil)
		r.Body, r.RemoteAddr = b, "198.51.100.7:4242"
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		status = 0
		h.ServeHTTP(w, r)
		return w.Code, b.read
	}
	if code, n := send("", 1<<20); code != http.StatusUnauthorized || n != 0 {
		t.Errorf("no session: %d, %d bytes of the body read", code, n)
	}
	if code, n := send("Bearer good", 1<<20); code == http.StatusOK || n > maxForwardBody+1 {
		t.Errorf("a body past the handlers' limit: %d, %d bytes read", code, n)
	}
}
