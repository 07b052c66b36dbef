package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"sabot"
)

// Any node answers any request (issue 12). A request for a table that
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
// the header from nobody else. Connections from the nodes' own addresses
// are not counted against the per-address cap (addrListener.exempt).

// nodeHeaderName carries what one node tells another about a request.
const nodeHeaderName = "Sabot-Node"

// localHeaderName asks a node for its own tables only (the lobby).
const localHeaderName = "Sabot-Local"

// nodeHeaderAge bounds how old a signed header may be.
const nodeHeaderAge = time.Minute

// maxHops bounds how many nodes a request crosses: a node that received a
// forwarded request for a table it does not own forwards it once more at
// most (the table moved on the way).
const maxHops = 2

// betweenNodes is how long a request for a table that no live node owns
// (its node died, it is being handed over) waits for one to claim it.
const betweenNodes = 3 * time.Second

func (s *Server) nodeMAC(node string, unix int64, addr, method, path string, hops int) string {
	m := hmac.New(sha256.New, s.SeedKey.node)
	fmt.Fprintf(m, "%s\x00%d\x00%s\x00%s\x00%s\x00%d", node, unix, addr, method, path, hops)
	return hex.EncodeToString(m.Sum(nil))
}

// nodeHeader signs a request forwarded for a client at addr.
func (s *Server) nodeHeader(addr, method, path string, hops int) string {
	now := time.Now().Unix()
	self := s.selfID()
	return fmt.Sprintf("%s %d %s %d %s", self, now, addr, hops, s.nodeMAC(self, now, addr, method, path, hops))
}

// fromNode returns the client address and hop count a node signed on a
// request; ok false if the request carries no valid signature.
func (s *Server) fromNode(r *http.Request) (addr string, hops int, ok bool) {
	h := r.Header.Get(nodeHeaderName)
	if h == "" || s.SeedKey == nil || s.nodes == nil {
		return "", 0, false
	}
	f := strings.Fields(h)
	if len(f) != 5 {
		return "", 0, false
	}
	unix, err1 := strconv.ParseInt(f[1], 10, 64)
	hops, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || time.Since(time.Unix(unix, 0)).Abs() > nodeHeaderAge {
		return "", 0, false
	}
	want := s.nodeMAC(f[0], unix, f[2], r.Method, r.URL.Path, hops)
	if !hmac.Equal([]byte(want), []byte(f[4])) {
		return "", 0, false
	}
	return f[2], hops, true
}

// clientAddr is the address a request comes from: the client's that a
// node signed, else the connection's.
func (s *Server) clientAddr(r *http.Request) string {
	if addr, _, ok := s.fromNode(r); ok {
		return addr
	}
	return r.RemoteAddr
}

// hostOf is the IP address of a host:port, as a node's is recorded.
func hostOf(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.Unmap().WithZone("").String()
	}
	return host
}

// isNode reports whether an IP address is a live node's.
func (s *Server) isNode(ip string) bool {
	if s.nodes == nil || !s.Shared {
		return false
	}
	s.nodes.mu.Lock()
	defer s.nodes.mu.Unlock()
	return s.nodes.hosts[ip]
}

func (s *Server) selfID() string {
	s.nodes.mu.Lock()
	defer s.nodes.mu.Unlock()
	return s.nodes.self.ID
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

// owner returns the URL of the live node that owns a table ("" for this
// node), known false if no live node owns it or there is no such table.
// The leases are read again when the last read is older than fresh.
func (s *Server) owner(ctx context.Context, id int64, fresh time.Duration) (u string, known bool) {
	if _, err := s.table(id); err == nil {
		return "", true
	}
	n := s.nodes
	n.mu.Lock()
	stale := time.Since(n.refresh) > fresh
	n.mu.Unlock()
	if stale {
		s.readLeases(ctx)
	}
	if _, err := s.table(id); err == nil {
		return "", true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	l, ok := n.owners[id]
	if !ok || !l.Live || l.Node == n.self.ID {
		return "", false
	}
	p, ok := n.peers[l.Node]
	if !ok {
		return "", false
	}
	return p.URL, true
}

// tableExists reports whether a table is served (by any node, or none at
// the moment): the leases as last read list it, or the store has it (one
// created since).
func (s *Server) tableExists(ctx context.Context, id int64) bool {
	s.nodes.mu.Lock()
	_, ok := s.nodes.owners[id]
	s.nodes.mu.Unlock()
	if ok {
		return true
	}
	t, err := s.Store.TableByID(ctx, id)
	return err == nil && t.Profile != ""
}

// forward sends a request for a table to the node that owns it.
func (s *Server) forward(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := tableOfPath(r.URL.Path)
		if s.nodes == nil || !s.Shared || !ok {
			next.ServeHTTP(w, r)
			return
		}
		addr, hops, signed := s.fromNode(r)
		if !signed {
			addr, hops = r.RemoteAddr, 0
		}
		deadline := time.Now().Add(betweenNodes)
		for fresh := time.Second; ; fresh = 100 * time.Millisecond {
			u, known := s.owner(r.Context(), id, fresh)
			switch {
			case known && u == "":
				next.ServeHTTP(w, r)
				return
			case known && hops < maxHops:
				s.proxy(w, r, u, addr, hops+1)
				return
			case !known && !s.tableExists(r.Context(), id):
				next.ServeHTTP(w, r) // no such table: the handlers say so
				return
			}
			if time.Now().After(deadline) || r.Context().Err() != nil {
				s.writeError(w, r, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
					Message: fmt.Sprintf("table %d is moving between nodes: try again", id)})
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// proxy forwards a request to the node at base, signed for the client.
func (s *Server) proxy(w http.ResponseWriter, r *http.Request, base, addr string, hops int) {
	target, err := url.Parse(base)
	if err != nil {
		s.writeError(w, r, sabot.Internal(err))
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
	s.metrics.forwarded.WithLabelValues(kind).Inc()
	header := s.nodeHeader(addr, r.Method, r.URL.Path, hops)
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
			pr.Out.Header.Set(nodeHeaderName, header)
		},
		Transport: s.peerTransport(),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			s.logger().Warn("a forwarded request failed", "to", base, "path", r.URL.Path, "err", err)
			s.nodes.mu.Lock()
			s.nodes.refresh = time.Time{}
			s.nodes.mu.Unlock()
			s.writeError(w, r, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
				Message: "the table's node does not answer: try again"})
		},
	}
	rp.ServeHTTP(w, r)
}

var peerOnce sync.Once
var peerTransport *http.Transport

// peerTransport is the connections from this node to the others, kept
// alive between requests.
func (s *Server) peerTransport() *http.Transport {
	peerOnce.Do(func() {
		peerTransport = &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 256,
			IdleConnTimeout:     90 * time.Second,
		}
	})
	return peerTransport
}

// lobbyCache holds the lobby gathered from every node for a moment: a
// lobby asked for at a high rate costs each node one request per
// lobbyFresh, not one per visitor.
type lobbyCache struct {
	mu    sync.Mutex
	at    time.Time
	views []*TableView
}

const lobbyFresh = 500 * time.Millisecond

// lobby returns every table's view: this node's, and those the other live
// nodes return for theirs.
func (s *Server) lobby(ctx context.Context, r *http.Request) []*TableView {
	local := s.localViews(ctx)
	if s.nodes == nil || !s.Shared {
		return local
	}
	if _, _, ok := s.fromNode(r); ok && r.Header.Get(localHeaderName) != "" {
		return local
	}
	c := &s.lobbyCache
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.at) < lobbyFresh {
		return c.views
	}
	s.nodes.mu.Lock()
	var peers []string
	for _, p := range s.nodes.peers {
		if p.Live && p.ID != s.nodes.self.ID {
			peers = append(peers, p.URL)
		}
	}
	s.nodes.mu.Unlock()
	views := local
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, u := range peers {
		wg.Go(func() {
			vs, err := s.peerTables(ctx, u, s.clientAddr(r))
			if err != nil {
				s.logger().Warn("a node did not list its tables", "node", u, "err", err)
				return
			}
			mu.Lock()
			views = append(views, vs...)
			mu.Unlock()
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	out := views[:0:0]
	for _, v := range views {
		if !seen[v.ID] {
			seen[v.ID] = true
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	c.at, c.views = time.Now(), out
	return out
}

// peerTables asks a node for the tables it serves.
func (s *Server) peerTables(ctx context.Context, base, addr string) ([]*TableView, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimRight(base, "/")+"/api/tables", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set(nodeHeaderName, s.nodeHeader(addr, "GET", "/api/tables", 1))
	req.Header.Set(localHeaderName, "1")
	s.metrics.forwarded.WithLabelValues("lobby").Inc()
	resp, err := (&http.Client{Transport: s.peerTransport()}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var vs []*TableView
	err = json.NewDecoder(resp.Body).Decode(&vs)
	return vs, err
}
