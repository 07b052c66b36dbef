package server

import (
	"context"
	"math"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"sabot"
	"sabot/internal/cluster"
)

// The defaults of the limits on Server (docs/server.md, "Abuse and
// limits"). A zero field takes its default; a negative one turns the
// limit off.
const (
	DefaultReadTimeout     = 15 * time.Second // a request, headers and body
	DefaultWriteTimeout    = 30 * time.Second // an answer (not a WebSocket)
	DefaultIdleTimeout     = 60 * time.Second // a keep-alive connection between requests
	DefaultMaxConnsPerAddr = 1024             // 100 tables × 7 bots from one address hold about 710
	DefaultLoginNameBurst  = 10               // failed logins for one name from one address, then one per DefaultLoginNameEvery
	DefaultLoginNameEvery  = time.Minute
	// Failed logins for one name from every address it has not logged in
	// from, then one per DefaultLoginNameAllEvery: guessing spread over
	// many addresses. An address the name has logged in from is not held
	// up by it, so that a stranger's guessing does not lock its owner out.
	DefaultLoginNameAllBurst = 100
	DefaultLoginNameAllEvery = 10 * time.Second
	DefaultLoginAddrBurst    = 50 // failed logins from one address, then one per DefaultLoginAddrEvery
	DefaultLoginAddrEvery    = 5 * time.Second
	DefaultRegisterBurst     = 10 // registrations from one address (a family, a café), then one per DefaultRegisterEvery; an administrator's are not counted
	DefaultRegisterEvery     = time.Minute
	// Refused requests (4xx) from one address: DefaultRefusalBurst, then
	// one per DefaultRefusalEvery; beyond, each refusal is answered only
	// after DefaultTarpit, so that a client hammering the server with bad
	// requests slows itself, not the tables.
	DefaultRefusalBurst = 200
	DefaultRefusalEvery = 50 * time.Millisecond
	DefaultTarpit       = time.Second
	DefaultHashQueue    = 32 // requests waiting for a password hash beyond those being computed
	// Requests from one address waiting for a password hash, or being
	// hashed: a fair share of the queue (40 parallel logins
	// of one account had every other login answered 503). The bots log in
	// 8 at a time.
	DefaultHashPerAddr = 8
	// Successful logins of one account (from anywhere), then one per
	// DefaultLoginOKNameEvery; from one address, DefaultLoginOKAddrBurst
	// (the bots of a load test log in from one), then one per
	// DefaultLoginOKAddrEvery (successes cost a hash too).
	DefaultLoginOKNameBurst = 10
	DefaultLoginOKNameEvery = 30 * time.Second
	DefaultLoginOKAddrBurst = 1000
	DefaultLoginOKAddrEvery = time.Second
	DefaultMaxIDLength      = 64 // bytes of a command_id or client_id
	// MaxIDLengthLimit bounds MaxIDLength: the log's unique index holds
	// the IDs (PostgreSQL's B-tree refuses entries over about 2.7 kB).
	MaxIDLengthLimit = 512
)

// MaxPassword is the longest password in bytes: bcrypt reads no more.
const MaxPassword = 72

func durationOr(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

func countOr(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// defaultHashWorkers is half the CPUs, at least one: the tables keep the
// other half while passwords are checked.
func defaultHashWorkers() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// guards are the server's defences against one client's abuse, made once
// from the Server's fields.
type guards struct {
	loginName *throttle // failed logins per name (folded) and address
	// failed logins per name from addresses it has not logged in from
	loginNameAll *throttle
	known        *knownAddrs
	loginAddr    *throttle // failed logins per client address
	register     *throttle // registrations per client address
	loginOKName  *throttle // successful logins per name (folded)
	loginOKAddr  *throttle // successful logins per client address
	commands     *throttle // table commands over HTTP per user
	refusals     *throttle // refused requests per client address (tarpit beyond)
	tarpit       time.Duration
	hash         *hasher

	dummyOnce sync.Once
	dummy     []byte // a bcrypt hash no password matches, of the server's cost

	readyMu  sync.Mutex
	readyAt  time.Time
	readyErr error
}

func (s *Server) guards() *guards {
	s.guardOnce.Do(func() {
		if s.metrics == nil { // EnsureAdmin hashes before Open
			s.metrics = newMetrics()
		}
		s.guard = &guards{
			loginName:    newThrottle(countOr(s.LoginNameBurst, DefaultLoginNameBurst), durationOr(s.LoginNameEvery, DefaultLoginNameEvery)),
			loginNameAll: newThrottle(countOr(s.LoginNameAllBurst, DefaultLoginNameAllBurst), durationOr(s.LoginNameAllEvery, DefaultLoginNameAllEvery)),
			known:        &knownAddrs{names: map[string][]string{}},
			loginAddr:    newThrottle(countOr(s.LoginAddrBurst, DefaultLoginAddrBurst), durationOr(s.LoginAddrEvery, DefaultLoginAddrEvery)),
			register:     newThrottle(countOr(s.RegisterBurst, DefaultRegisterBurst), durationOr(s.RegisterEvery, DefaultRegisterEvery)),
			refusals:     newThrottle(countOr(s.RefusalBurst, DefaultRefusalBurst), durationOr(s.RefusalEvery, DefaultRefusalEvery)),
			tarpit:       durationOr(s.Tarpit, DefaultTarpit),
			loginOKName:  newThrottle(countOr(s.LoginOKNameBurst, DefaultLoginOKNameBurst), durationOr(s.LoginOKNameEvery, DefaultLoginOKNameEvery)),
			loginOKAddr:  newThrottle(countOr(s.LoginOKAddrBurst, DefaultLoginOKAddrBurst), durationOr(s.LoginOKAddrEvery, DefaultLoginOKAddrEvery)),
			commands:     commandThrottle(s.CommandRate, s.CommandBurst),
			hash:         newHasher(countOr(s.HashWorkers, defaultHashWorkers()), countOr(s.HashQueue, DefaultHashQueue), countOr(s.HashPerAddr, DefaultHashPerAddr)),
		}
		// Nodes on one database count the failed logins together: behind
		// N nodes a guesser gets the rate of one, not N times it.
		if st, ok := s.Store.(sharedThrottles); ok && s.Shared {
			s.guard.known.shared = st
			for prefix, t := range map[string]*throttle{"login-name ": s.guard.loginName, "login-name-all ": s.guard.loginNameAll, "login-addr ": s.guard.loginAddr} {
				if t != nil {
					t.shared, t.prefix = st, prefix
				}
			}
		}
	})
	return s.guard
}

// clientKey is the address a client is counted under: its IP, or for IPv6
// its /64 (one subscriber's network, which holds countless addresses).
func clientKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
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

// throttle is a token bucket per key (a name, an address): burst attempts,
// then one per interval. Buckets that have filled up again are forgotten.
type throttle struct {
	burst int
	every time.Duration
	// shared, if set, holds the buckets in the database, where every
	// node counts (the failed logins of nodes on PostgreSQL),
	// each under prefix and its key; this node's buckets stand in when the
	// store cannot answer.
	shared sharedThrottles
	prefix string

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	sweepAt int
}

// newThrottle returns a throttle, or nil (no limit) when burst or every is 0.
func newThrottle(burst int, every time.Duration) *throttle {
	if burst <= 0 || every <= 0 {
		return nil
	}
	return &throttle{burst: burst, every: every, buckets: map[string]*rate.Limiter{}, sweepAt: 1024}
}

func (t *throttle) bucket(key string, now time.Time) *rate.Limiter {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l, ok := t.buckets[key]; ok {
		return l
	}
	if len(t.buckets) >= t.sweepAt {
		for k, l := range t.buckets {
			if l.TokensAt(now) >= float64(t.burst) {
				delete(t.buckets, k)
			}
		}
		t.sweepAt = max(1024, 2*len(t.buckets))
	}
	l := rate.NewLimiter(rate.Every(t.every), t.burst)
	t.buckets[key] = l
	return l
}

// wait returns how long key must wait for its next attempt (0: none), and
// takes nothing.
func (t *throttle) wait(key string, now time.Time) time.Duration {
	if t == nil {
		return 0
	}
	tokens := t.bucket(key, now).TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) * float64(t.every))
}

// sharedThrottles are throttle buckets in the store, shared by the nodes
// (sqlstore/throttle.go).
type sharedThrottles interface {
	ThrottleWait(ctx context.Context, bucket string, burst int, every time.Duration) (time.Duration, error)
	ThrottleCharge(ctx context.Context, bucket string, burst int, every time.Duration) error
}

// waitShared is wait, counted where the nodes share the buckets.
func (t *throttle) waitShared(ctx context.Context, key string, now time.Time) time.Duration {
	if t == nil {
		return 0
	}
	if t.shared != nil {
		if d, err := t.shared.ThrottleWait(ctx, t.prefix+key, t.burst, t.every); err == nil {
			return d
		}
	}
	return t.wait(key, now)
}

// chargeShared is charge, counted where the nodes share the buckets.
func (t *throttle) chargeShared(ctx context.Context, key string, now time.Time) {
	if t == nil {
		return
	}
	if t.shared != nil && t.shared.ThrottleCharge(ctx, t.prefix+key, t.burst, t.every) == nil {
		return
	}
	t.charge(key, now)
}

// charge counts an attempt of key (a failed login), if it has any left.
func (t *throttle) charge(key string, now time.Time) {
	if t != nil {
		t.bucket(key, now).AllowN(now, 1)
	}
}

// take counts an attempt of key, or returns how long it must wait.
func (t *throttle) take(key string, now time.Time) time.Duration {
	if t == nil {
		return 0
	}
	r := t.bucket(key, now).ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d
	}
	return 0
}

// commandThrottle is the HTTP command budget of a user: rate a second in
// bursts of burst (0: the socket's defaults; a negative rate: none).
func commandThrottle(perSecond float64, burst int) *throttle {
	if perSecond == 0 {
		perSecond = DefaultSocketRate
	}
	if burst == 0 {
		burst = DefaultSocketBurst
	}
	if perSecond < 0 || burst < 0 {
		return nil
	}
	return newThrottle(burst, time.Duration(float64(time.Second)/perSecond))
}

// reserve takes an attempt of key now, or returns how long it must wait;
// undo gives the attempt back (a login that turned out to fail).
func (t *throttle) reserve(key string, now time.Time) (undo func(), wait time.Duration) {
	if t == nil {
		return func() {}, 0
	}
	r := t.bucket(key, now).ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return nil, d
	}
	return func() { r.CancelAt(now) }, 0
}

// hasher bounds the CPU that password hashing takes: at most workers
// hashes at once, at most queue more waiting (each with its request's
// context), at most perAddr of them from one client address; beyond that
// a request is refused at once (503, Retry-After).
type hasher struct {
	slots   chan struct{} // nil: no bound
	waiting chan struct{}
	perAddr int // 0: no share

	mu    sync.Mutex
	addrs map[string]int // requests in the hasher, by client address
}

func newHasher(workers, queue, perAddr int) *hasher {
	if workers <= 0 {
		return &hasher{}
	}
	return &hasher{slots: make(chan struct{}, workers), waiting: make(chan struct{}, workers+max(queue, 0)), perAddr: perAddr, addrs: map[string]int{}}
}

type hashAddrKey struct{}

// withHashAddr marks a request's context with the client address its
// password hashes are counted under.
func withHashAddr(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, hashAddrKey{}, addr)
}

func (h *hasher) do(ctx context.Context, fn func()) error {
	if h.slots == nil {
		fn()
		return nil
	}
	if addr, _ := ctx.Value(hashAddrKey{}).(string); addr != "" && h.perAddr > 0 {
		h.mu.Lock()
		if h.addrs[addr] >= h.perAddr {
			h.mu.Unlock()
			return &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "your address has its share of the passwords being checked: try again in a moment", RetryAfter: time.Second}
		}
		h.addrs[addr]++
		h.mu.Unlock()
		defer func() {
			h.mu.Lock()
			if h.addrs[addr]--; h.addrs[addr] <= 0 {
				delete(h.addrs, addr)
			}
			h.mu.Unlock()
		}()
	}
	select {
	case h.waiting <- struct{}{}:
	default:
		return &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "the server is busy checking passwords: try again in a moment", RetryAfter: time.Second}
	}
	defer func() { <-h.waiting }()
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-h.slots }()
	fn()
	return nil
}

// addrListener caps the connections open at once from one client address:
// a connection over the cap is closed as soon as it is accepted (one client's
// idle connections took every file descriptor).
type addrListener struct {
	net.Listener
	max     int
	refused func()
	// exempt: addresses not counted (the other nodes of a cluster,
	// whose connections carry many clients' requests).
	exempt func(ip string) bool

	mu   sync.Mutex
	open map[string]int
}

func (l *addrListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientKey(c.RemoteAddr().String())
		if l.exempt != nil && l.exempt(cluster.HostOf(c.RemoteAddr().String())) {
			return c, nil
		}
		l.mu.Lock()
		if l.open[key] >= l.max {
			l.mu.Unlock()
			c.Close()
			l.refused()
			continue
		}
		l.open[key]++
		l.mu.Unlock()
		return &addrConn{Conn: c, l: l, key: key}, nil
	}
}

func (l *addrListener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// addrConn gives its place back when it closes (a WebSocket's too: the
// hijacked connection is this one).
type addrConn struct {
	net.Conn
	l    *addrListener
	key  string
	once sync.Once
}

func (c *addrConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.key) })
	return err
}

// knownAddrs remembers, per name (folded), the last addresses it logged
// in from (a few each, in memory: a restart forgets them).
type knownAddrs struct {
	mu    sync.Mutex
	names map[string][]string
	// shared, on nodes that share a database, keeps the addresses there
	// too (sharedKnown), so that no node locks out an owner another node
	// knows.
	shared sharedThrottles
}

// knownFor is how long the nodes together remember that a name logged in
// from an address (a row of the throttles' table: knownBucket, a bucket of
// one attempt that is full again knownFor after the login that marked it).
const knownFor = 30 * 24 * time.Hour

// knownBucket names the throttles' row that says a name logged in from an
// address (pair: the name, folded, and the address).
func knownBucket(pair string) string { return "known " + pair }

// sharedHas reports whether another node (or this one) marked the pair
// known in the database within knownFor.
func (k *knownAddrs) sharedHas(ctx context.Context, pair string) bool {
	if k.shared == nil {
		return false
	}
	d, err := k.shared.ThrottleWait(ctx, knownBucket(pair), 1, knownFor)
	return err == nil && d > 0
}

// sharedAdd marks the pair known in the database (a row already there is
// kept as it is until it expires).
func (k *knownAddrs) sharedAdd(ctx context.Context, pair string) {
	if k.shared != nil {
		k.shared.ThrottleCharge(ctx, knownBucket(pair), 1, knownFor)
	}
}

// knownAddrsPerName bounds the addresses remembered for one name.
const knownAddrsPerName = 8

func (k *knownAddrs) has(name, addr string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Contains(k.names[name], addr)
}

func (k *knownAddrs) add(name, addr string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	as := slices.DeleteFunc(k.names[name], func(a string) bool { return a == addr })
	if len(as) >= knownAddrsPerName {
		as = as[1:]
	}
	k.names[name] = append(as, addr)
}

// DefaultShoeReadsPerAddr is how many GET /api/shoes/{id} one client
// address is answered a second (Server.ShoeReadsPerAddr); DefaultPublicReads
// and DefaultPublicReadBurst bound an address's requests of the public
// routes that make tables work (Server.PublicReads).
const (
	DefaultShoeReadsPerAddr = 10
	DefaultPublicReads      = 20
	DefaultPublicReadBurst  = 40
)

// rateThrottle is a throttle of perSecond a second (0: def; negative:
// none) in bursts of burst (0: a second's worth, at least 1).
func rateThrottle(perSecond, def float64, burst int) *throttle {
	if perSecond == 0 {
		perSecond = def
	}
	if perSecond < 0 {
		return nil
	}
	if burst <= 0 {
		burst = max(1, int(math.Ceil(perSecond)))
	}
	return newThrottle(burst, time.Duration(float64(time.Second)/perSecond))
}

// perAddr answers 429 to a request past its address's bucket of t, and
// passes the others to h. A request with a valid session is a user's, not
// anybody's: it is not counted (the pages of players at their tables poll).
func (s *Server) perAddr(t *throttle, what string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t == nil {
			h.ServeHTTP(w, r)
			return
		}
		if r.Header.Get("Authorization") != "" {
			if _, _, err := s.authenticate(r, false); err == nil {
				h.ServeHTTP(w, r)
				return
			}
		}
		if d := t.take(clientKey(s.clientAddr(r)), time.Now()); d > 0 { // real load, on the real clock
			s.writeError(w, r, sabot.Throttled(d, "too many %s from your address: try again in %s", what, roundUp(d)))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// DefaultShoeReads is how many GET /api/shoes/{id} the server answers a
// second, from everybody together (Server.ShoeReads, --shoe-reads): the
// endpoint needs no login.
const DefaultShoeReads = 50

// readLimit is a token bucket of requests a second, made on first use.
type readLimit struct {
	once      sync.Once
	perSecond float64
	lim       *rate.Limiter
}

// init sets the rate: perSecond (0: def; negative: no limit), with a
// burst of a second's worth.
func (l *readLimit) init(perSecond float64, def float64) {
	l.once.Do(func() {
		if perSecond == 0 {
			perSecond = def
		}
		l.perSecond = perSecond
		if perSecond > 0 {
			l.lim = rate.NewLimiter(rate.Limit(perSecond), max(1, int(math.Ceil(perSecond))))
		}
	})
}

// allow takes a token at now; when there is none, it says how long until
// there is.
func (l *readLimit) allow(now time.Time) (time.Duration, bool) {
	if l.lim == nil {
		return 0, true
	}
	r := l.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}
