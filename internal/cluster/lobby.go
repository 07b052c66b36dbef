package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// The lobby of a cluster is every node's tables: the node asked gathers
// those the other live nodes list for their own.

// lobbyCache holds the lobby gathered from every node for a moment: a
// lobby asked for at a high rate costs each node one request per
// lobbyFresh, not one per visitor.
type lobbyCache struct {
	mu    sync.Mutex
	at    time.Time
	views any // []V of Lobby
}

const lobbyFresh = 500 * time.Millisecond

// Lobby returns every table's view: this node's (local), and those the
// other live nodes return for theirs (their GET /api/tables as V, each
// table once by id, in the order of id).
func Lobby[V any](ctx context.Context, c *Cluster, r *http.Request, local []V, id func(V) int64) []V {
	if c.node == nil || !c.Shared {
		return local
	}
	if _, _, ok := fromNode(r); ok && r.Header.Get(localHeaderName) != "" {
		return local
	}
	lc := &c.lobby
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if time.Since(lc.at) < lobbyFresh {
		return lc.views.([]V)
	}
	c.node.mu.Lock()
	var peers []string
	for _, p := range c.node.peers {
		if p.Live && p.ID != c.node.self.ID {
			peers = append(peers, p.URL)
		}
	}
	c.node.mu.Unlock()
	views := local
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, u := range peers {
		wg.Go(func() {
			vs, err := peerTables[V](ctx, c, u, ClientAddr(r))
			if err != nil {
				c.logger().Warn("a node did not list its tables", "node", u, "err", err)
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
		if !seen[id(v)] {
			seen[id(v)] = true
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return id(out[i]) < id(out[j]) })
	lc.at, lc.views = time.Now(), out
	return out
}

// peerTables asks a node for the tables it serves.
func peerTables[V any](ctx context.Context, c *Cluster, base, addr string) ([]V, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimRight(base, "/")+"/api/tables", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set(nodeHeaderName, c.nodeHeader(addr, 1, base, "GET", req.URL, nil))
	req.Header.Set(localHeaderName, "1")
	c.Metrics.forwarded.WithLabelValues("lobby").Inc()
	resp, err := (&http.Client{Transport: peers()}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var vs []V
	err = json.NewDecoder(resp.Body).Decode(&vs)
	return vs, err
}
