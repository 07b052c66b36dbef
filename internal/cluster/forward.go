package cluster

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"sabot"
)

// Any node answers any request. A request for a table that
// another node owns — a command, a read, the table's WebSocket, its edge,
// strategy and rules — is forwarded to the owner by a reverse proxy,
// WebSockets included; the lobby asks every node for its tables. Clients
// need not know where a table lives: any node behind any load balancer
// will do.
//
// A forwarded request carries the client's address in a header that the
// sending node signs (nodeHeader) with a key derived from the seed key the
// nodes share: the owner applies its per-address limits (logins, refusals,
// the tarpit) to the client, not to the node that forwarded it, and trusts
// the header from nobody else: it is bound to the request (method, path,
// query, body) and the receiving node, and good once (its nonce).
// Connections from the nodes' own addresses
// are not counted against the per-address cap (IsNode).

// nodeHeaderName carries what one node tells another about a request.
const nodeHeaderName = "Sabot-Node"

// localHeaderName asks a node for its own tables only (the lobby).
const localHeaderName = "Sabot-Local"

// nodeHeaderAge bounds how old a signed header may be; its nonce is
// remembered as long (nonceCache), so that it is good for one request.
const nodeHeaderAge = time.Minute

// maxForwardBody bounds the body of a forwarded request, which the
// forwarding node reads whole to sign its hash, and the receiving node to
// check it: what the table's handlers take (server.maxBody, 64 kB; issue
// 40, S2: a bound of 1 MiB let made-up headers fill a node's heap).
const maxForwardBody = 1 << 16

// maxHops bounds how many nodes a request crosses: a node that received a
// forwarded request for a table it does not own forwards it once more at
// most (the table moved on the way).
const maxHops = 2

// betweenNodes is how long a request for a table that no live node owns
// (its node died, it is being handed over) waits for one to claim it.
const betweenNodes = 3 * time.Second

// nodeSigned is what a node's header says of a request: the node that
// signed it, the client's address and the hops so far.
type nodeSigned struct {
	node, addr string
	hops       int
}

// nodeHeaderFields are what the MAC covers: who signed,
// when, a nonce, the client's address, the hops, the node it is sent to,
// and the request itself — method, path, query and a hash of the body — so
// that a header captured on the way is good for that request only, at that
// node, once.
type nodeHeaderFields struct {
	node        string
	unix        int64
	nonce, addr string
	hops        int
	to          string // the receiving node's URL
	method      string
	path, query string
	body        [sha256.Size]byte
}

func (c *Cluster) nodeMAC(f nodeHeaderFields) string {
	m := hmac.New(sha256.New, c.Key)
	fmt.Fprintf(m, "sabot-node-v2\x00%s\x00%d\x00%s\x00%s\x00%d\x00%s\x00%s\x00%s\x00%s\x00%x",
		f.node, f.unix, f.nonce, f.addr, f.hops, f.to, f.method, f.path, f.query, f.body)
	return hex.EncodeToString(m.Sum(nil))
}

// nodeHeader signs a request forwarded for a client at addr to the node
// at URL to: "NODE UNIX NONCE ADDR HOPS MAC".
func (c *Cluster) nodeHeader(addr string, hops int, to, method string, u *url.URL, body []byte) string {
	f := nodeHeaderFields{node: c.SelfID(), unix: time.Now().Unix(), nonce: randomID(12), addr: addr, hops: hops,
		to: strings.TrimRight(to, "/"), method: method, path: u.EscapedPath(), query: u.RawQuery, body: sha256.Sum256(body)}
	return fmt.Sprintf("%s %d %s %s %d %s", f.node, f.unix, f.nonce, f.addr, f.hops, c.nodeMAC(f))
}

type nodeSignedKey struct{}

// verifyNode checks the node header of a request once, as it arrives, and
// returns the request with what it says (fromNode): a signature of a node
// of this cluster, not too old, made for this node and for this request
// (its body read and put back), whose nonce has not been seen. Anything
// else is no node's: the request is the connection's own.
func (c *Cluster) verifyNode(r *http.Request) *http.Request {
	h := r.Header.Get(nodeHeaderName)
	if h == "" {
		return r
	}
	r.Header.Del(nodeHeaderName) // read here only
	if c.Key == nil || c.node == nil {
		return r
	}
	f := strings.Fields(h)
	if len(f) != 6 {
		return r
	}
	// What can be checked before the body: a connection
	// from a live node's address, a header of a live node, not too old,
	// its nonce not taken. Only then is the body read (and hashed), no
	// more of it than the table's handlers take.
	unix, err1 := strconv.ParseInt(f[1], 10, 64)
	hops, err2 := strconv.Atoi(f[4])
	if err1 != nil || err2 != nil || time.Since(time.Unix(unix, 0)).Abs() > nodeHeaderAge ||
		!c.IsNode(HostOf(r.RemoteAddr)) || !c.livePeer(f[0]) || c.nonces.seenNow(f[0]+" "+f[2]) {
		return r
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxForwardBody+1))
		rest := r.Body
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(b), rest), rest}
		if err != nil || len(b) > maxForwardBody {
			return r
		}
		body = b
	}
	self := c.Self().URL
	want := c.nodeMAC(nodeHeaderFields{node: f[0], unix: unix, nonce: f[2], addr: f[3], hops: hops, to: strings.TrimRight(self, "/"),
		method: r.Method, path: r.URL.EscapedPath(), query: r.URL.RawQuery, body: sha256.Sum256(body)})
	if !hmac.Equal([]byte(want), []byte(f[5])) {
		return r
	}
	// A nonce is remembered until its header is too old anyway.
	if !c.nonces.first(f[0]+" "+f[2], time.Unix(unix, 0).Add(nodeHeaderAge+time.Second)) {
		c.logger().Warn("a node's header was replayed: not trusted", "node", f[0], "path", r.URL.Path, "from", r.RemoteAddr)
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), nodeSignedKey{}, nodeSigned{node: f[0], addr: f[3], hops: hops}))
}

// livePeer reports whether a node ID is a live node's, as last read.
func (c *Cluster) livePeer(id string) bool {
	c.node.mu.Lock()
	defer c.node.mu.Unlock()
	p, ok := c.node.peers[id]
	return ok && p.Live
}

// fromNode returns the client address and hop count a node signed on a
// request (verifyNode); ok false if the request carries no valid
// signature.
func fromNode(r *http.Request) (addr string, hops int, ok bool) {
	v, ok := r.Context().Value(nodeSignedKey{}).(nodeSigned)
	return v.addr, v.hops, ok
}

// nonceCache remembers the nonces of the node headers taken, each until
// its header is too old to be taken again.
type nonceCache struct {
	mu    sync.Mutex
	seen  map[string]time.Time
	swept time.Time
}

// seenNow reports whether a nonce was taken and is still remembered.
func (c *nonceCache) seenNow(nonce string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.seen[nonce]
	return ok && !time.Now().After(t)
}

// first records a nonce until a time; false if it was seen already.
func (c *nonceCache) first(nonce string, until time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if c.seen == nil {
		c.seen = map[string]time.Time{}
	}
	if now.Sub(c.swept) > 10*time.Second {
		for k, t := range c.seen {
			if now.After(t) {
				delete(c.seen, k)
			}
		}
		c.swept = now
	}
	if t, ok := c.seen[nonce]; ok && !now.After(t) {
		return false
	}
	c.seen[nonce] = until
	return true
}

// ClientAddr is the address a request comes from: the client's that a
// node signed, else the connection's.
func ClientAddr(r *http.Request) string {
	if addr, _, ok := fromNode(r); ok {
		return addr
	}
	return r.RemoteAddr
}

// HostOf is the IP address of a host:port, as a node's is recorded.
func HostOf(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.Unmap().WithZone("").String()
	}
	return host
}

// IsNode reports whether an IP address is a live node's.
func (c *Cluster) IsNode(ip string) bool {
	if c.node == nil || !c.Shared {
		return false
	}
	c.node.mu.Lock()
	defer c.node.mu.Unlock()
	return c.node.hosts[ip]
}

// tableOfPath returns the table a path is about: /api/tables/{id} and
// what is under it.
func tableOfPath(path string) (int64, bool) {
	rest, ok := strings.CutPrefix(path, "/api/tables/")
	if !ok {
		return 0, false
	}
	idText, _, _ := strings.Cut(rest, "/")
	id, err := strconv.ParseInt(idText, 10, 64)
	return id, err == nil && id > 0
}

// owner returns the URL and ID of the live node that owns a table (""
// for this node), known false if no live node owns it or there is no such
// table. The leases are read again when the last read is older than fresh.
func (c *Cluster) owner(ctx context.Context, id int64, fresh time.Duration) (u, node string, known bool) {
	if c.Tables.Serves(id) {
		return "", "", true
	}
	n := c.node
	n.mu.Lock()
	stale := c.now().Sub(n.refresh) > fresh
	n.mu.Unlock()
	if stale {
		c.readLeases(ctx)
	}
	if c.Tables.Serves(id) {
		return "", "", true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	l, ok := n.owners[id]
	if !ok || !l.Live || l.Node == n.self.ID {
		return "", "", false
	}
	p, ok := n.peers[l.Node]
	if !ok {
		return "", "", false
	}
	return p.URL, l.Node, true
}

// watchOwner calls cut once the leases, as this node reads them (every
// scan), no longer say that node owns the table: its lease expired (the
// node stopped, died or was cut off) or the table moved. A request or
// socket forwarded to a node that can no longer serve it is cut, so that
// its client comes back and is forwarded to the table's new node, instead
// of waiting on the old one for as long as it is stopped. It returns when ctx
// is done.
func (c *Cluster) watchOwner(ctx context.Context, id int64, node string, cut func()) {
	n := c.node
	for {
		n.mu.Lock()
		l, ok := n.owners[id]
		read := n.read
		n.mu.Unlock()
		if !ok || !l.Live || l.Node != node {
			c.logger().Info("a forwarded request cut: its table's node no longer owns it", "table", id, "node", node)
			cut()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-read:
		}
	}
}

// tableExists reports whether a table is served (by any node, or none at
// the moment): the leases as last read list it, or the store has it (one
// created since).
func (c *Cluster) tableExists(ctx context.Context, id int64) bool {
	c.node.mu.Lock()
	_, ok := c.node.owners[id]
	c.node.mu.Unlock()
	if ok {
		return true
	}
	t, err := c.Tables.Table(ctx, id)
	return err == nil && !t.IsEventLog()
}

// Forward sends a request for a table to the node that owns it. Every
// request's node header is checked here, once, as it arrives (verifyNode),
// and every API request is refused at once while the node cannot reach
// its database (reach.go).
func (c *Cluster) Forward(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = c.verifyNode(r)
		r, done, refused := c.refuseUnreachable(w, r)
		defer done()
		if refused {
			return
		}
		id, ok := tableOfPath(r.URL.Path)
		if c.node == nil || !c.Shared || !ok {
			next.ServeHTTP(w, r)
			return
		}
		addr, hops, signed := fromNode(r)
		if !signed {
			addr, hops = r.RemoteAddr, 0
		}
		deadline := time.Now().Add(betweenNodes)
		for fresh := time.Second; ; fresh = 100 * time.Millisecond {
			u, node, known := c.owner(r.Context(), id, fresh)
			switch {
			case known && u == "":
				next.ServeHTTP(w, r)
				return
			case known && hops < maxHops:
				// Nobody's body is read for another node before his
				// session is checked.
				if c.Authenticate != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
					if err := c.Authenticate(r); err != nil {
						c.WriteError(w, r, err)
						return
					}
				}
				ctx, cancel := context.WithCancel(r.Context())
				go c.watchOwner(ctx, id, node, cancel)
				c.proxy(w, r.WithContext(ctx), u, addr, hops+1)
				cancel()
				return
			case !known && !c.tableExists(r.Context(), id):
				next.ServeHTTP(w, r) // no such table: the handlers say so
				return
			}
			if time.Now().After(deadline) || r.Context().Err() != nil {
				c.WriteError(w, r, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
					Message: fmt.Sprintf("table %d is moving between nodes: try again", id)})
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// proxy forwards a request to the node at base, signed for the client.
func (c *Cluster) proxy(w http.ResponseWriter, r *http.Request, base, addr string, hops int) {
	target, err := url.Parse(base)
	if err != nil {
		c.WriteError(w, r, sabot.Internal(err))
		return
	}
	kind := "http"
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		kind = "websocket"
		// The socket outlives the server's read and write timeouts.
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Time{})
		rc.SetWriteDeadline(time.Time{})
	}
	// The body is signed with the request: read it whole (a command's is
	// small; the table's handlers take at most maxForwardBody).
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		body, err = io.ReadAll(io.LimitReader(r.Body, maxForwardBody+1))
		if err != nil {
			c.WriteError(w, r, sabot.Errorf(sabot.EINVALID, "the request body could not be read: %v", err))
			return
		}
		if len(body) > maxForwardBody {
			c.WriteError(w, r, sabot.Errorf(sabot.EINVALID, "a request body is at most %d bytes", maxForwardBody))
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	c.Metrics.forwarded.WithLabelValues(kind).Inc()
	header := c.nodeHeader(addr, hops, base, r.Method, r.URL, body)
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
			pr.Out.Header.Set(nodeHeaderName, header)
		},
		Transport: peers(),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			c.logger().Warn("a forwarded request failed", "to", base, "path", r.URL.Path, "err", err)
			c.node.mu.Lock()
			c.node.refresh = time.Time{}
			c.node.mu.Unlock()
			c.WriteError(w, r, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
				Message: "the table's node does not answer: try again"})
		},
	}
	rp.ServeHTTP(w, r)
}

var peerOnce sync.Once
var peerTransport *http.Transport

// peers is the connections from this node to the others, kept alive
// between requests.
func peers() *http.Transport {
	peerOnce.Do(func() {
		peerTransport = &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 256,
			IdleConnTimeout:     90 * time.Second,
		}
	})
	return peerTransport
}
