package webapi

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"sabot"
)

// The hand calculator's bounds (GET /api/tables/{id}/ev, docs/web.md). A
// request's own work is bounded by what it may ask: the rules' bounds on
// the options (decks ≤ 16, max_hands ≤ 8), a hand of at most 21, cards
// removed from one shoe; the costliest request found (16 decks, 8 hands,
// CDP, 3,3 against a 2) takes about half a second of one core. Its
// address's budget and the slots bound how many a client may ask.
const (
	// MaxEVQuery bounds the query string in bytes.
	MaxEVQuery = 1024
	// MaxEVOptions bounds the o=key=value options of one request.
	MaxEVOptions = 16
	// DefaultCalcBurst is the computing time one client address may spend
	// at once; it earns it back at DefaultCalcShare of a core.
	DefaultCalcBurst = 5 * time.Second
	DefaultCalcShare = 0.25
	// DefaultCalcWait is how long a request waits for a free slot (half
	// the cores compute at most; the tables keep the other half).
	DefaultCalcWait = 2 * time.Second
)

// calcGuard bounds the calculator's work: slots computing at once, and a
// budget of computing time per client address (a token bucket counted in
// milliseconds, each request charged the time it took, one at least).
type calcGuard struct {
	slots chan struct{}
	wait  time.Duration
	burst int
	share float64

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	sweepAt int
}

func (a *API) guard() *calcGuard {
	a.calcOnce.Do(func() {
		n := a.CalcSlots
		if n <= 0 {
			n = max(1, runtime.GOMAXPROCS(0)/2)
		}
		g := &calcGuard{slots: make(chan struct{}, n), wait: a.CalcWait, share: a.CalcShare, buckets: map[string]*rate.Limiter{}, sweepAt: 1024}
		if g.wait <= 0 {
			g.wait = DefaultCalcWait
		}
		if g.share <= 0 {
			g.share = DefaultCalcShare
		}
		burst := a.CalcBurst
		if burst <= 0 {
			burst = DefaultCalcBurst
		}
		g.burst = max(1, int(burst/time.Millisecond))
		a.calc = g
	})
	return a.calc
}

func (g *calcGuard) bucket(key string, now time.Time) *rate.Limiter {
	g.mu.Lock()
	defer g.mu.Unlock()
	if l, ok := g.buckets[key]; ok {
		return l
	}
	if len(g.buckets) >= g.sweepAt {
		for k, l := range g.buckets {
			if l.TokensAt(now) >= float64(g.burst) {
				delete(g.buckets, k)
			}
		}
		g.sweepAt = max(1024, 2*len(g.buckets))
	}
	l := rate.NewLimiter(rate.Limit(1000*g.share), g.burst)
	g.buckets[key] = l
	return l
}

// run computes f for the client key within its budget and a slot: 429 when
// the address has spent its budget (with when to try again), 503 when no
// slot frees in time.
func (g *calcGuard) run(ctx context.Context, key string, f func()) error {
	now := time.Now()
	l := g.bucket(key, now)
	if tok := l.TokensAt(now); tok < 1 {
		wait := time.Duration((1 - tok) / (1000 * g.share) * float64(time.Second))
		retry := wait.Round(time.Second) + time.Second
		return sabot.Throttled(wait, "the hand calculator's computing time for your address is spent: %s of computing, then %.0f %% of a core; try again in %s", time.Duration(g.burst)*time.Millisecond, 100*g.share, retry).
			WithReason("calc_budget", map[string]any{"retry": int(retry / time.Second)})
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
	case <-t.C:
		e := sabot.Errorf(sabot.EUNAVAILABLE, "the hand calculator is busy: %d computing and more waiting; try again in a second", cap(g.slots)).
			WithReason("calc_busy", map[string]any{"retry": 1})
		e.RetryAfter = time.Second
		return e
	case <-ctx.Done():
		return ctx.Err()
	}
	start := time.Now()
	defer func() {
		<-g.slots
		ms := int(math.Ceil(float64(time.Since(start)) / float64(time.Millisecond)))
		l.ReserveN(time.Now(), min(max(ms, 1), g.burst)) // charged; never refused
	}()
	f()
	return nil
}

// evOptions reads the request's o=key=value options (the same as sabot's -o).
func evOptions(q []string) ([]string, error) {
	if len(q) > MaxEVOptions {
		return nil, fmt.Errorf("o: %d options, at most %d", len(q), MaxEVOptions)
	}
	for _, o := range q {
		if k, _, ok := strings.Cut(o, "="); !ok || k == "" {
			return nil, fmt.Errorf("o: %q is not key=value", o)
		}
	}
	return q, nil
}

// remoteKey is the connection's address: its IP, an IPv6 address by its
// /64 (one subscriber's network). The server gives its own (ClientKey).
func remoteKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
