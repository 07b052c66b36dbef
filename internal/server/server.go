// Package server is `sabot serve`: the authoritative table service. It
// serves live tables over an HTTP JSON API and one WebSocket per table, keeps
// the money in the store's double-entry ledger, and writes every change of a
// table to its append-only log before anybody sees it, so that a table is
// rebuilt exactly by replaying its log: on every start (crash recovery,
// GLI-19 §4.16, B.3), for game recall (§4.14) and replays of rounds.
//
// Each table is one goroutine (its actor, internal/actor) that owns the
// table.Table; the HTTP handlers and WebSocket loops send it commands. See
// docs/server.md, docs/protocol.md and docs/openapi.yaml.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sabot/internal/actor"
	"sabot/internal/care"
	"sabot/internal/cluster"
	"sabot/internal/operator"
	"sabot/internal/report"
	"sabot/internal/seal"
	"sabot/internal/tablelog"
	"sabot/internal/wallet"
	"sabot/money"
	"sync"
	"sync/atomic"
	"time"

	"sabot"
)

// Server is the table service. Set the exported fields, then Open.
type Server struct {
	Store  sabot.Store
	Addr   string       // listen address; "" means "127.0.0.1:0"
	Logger *slog.Logger // nil: discard
	Now    func() time.Time
	// TestMode allows tables in test mode: forced card orders, every round
	// marked test (`sabot serve --test-mode`).
	TestMode bool
	// RTPWatch watches each table's return to player against the exact
	// figure of its rules (rtpwatch.go, docs/pit.md; `sabot serve
	// --rtp-watch`): a metric, and a significant event when it leaves its
	// band. Each rule set's figures are computed once, in the background.
	RTPWatch bool
	// RollupEvery is how often the server brings the reports' sums by
	// hour and day up to the tables' logs (rollups.go; 0:
	// DefaultRollupEvery; negative: never, and a report reads the log
	// past the last marks).
	RollupEvery time.Duration
	// ReportStore, if set, is where the pit's reports over HTTP read
	// (reports.go): a replica's store opened read-only (`sabot serve
	// --reports-db`), so that a year's report does not take the primary's
	// processor from the tables. nil: Store.
	ReportStore sabot.Store
	theories    *report.Theories
	// The pit's reports over HTTP (reports.go): their theories, and the
	// one slot a report runs in.
	reportOnce sync.Once
	reportTh   *report.Theories
	reportSlot chan struct{}
	reportJobs report.Jobs          // reports.go
	reportTest map[string]ReportRun // a test's reports (SetReport), by name
	Timing     actor.Timing         // zero fields take actor.DefaultTiming's
	// BcryptCost is the cost of password hashes (0: bcrypt's default);
	// tests and load benchmarks that register hundreds of players lower it.
	BcryptCost int
	// WelcomeCredit is play money credited from the house to each new
	// player at registration, as a significant event (0: none; an
	// administrator credits wallets).
	WelcomeCredit int64
	// Currency is the ISO 4217 code the pages show money in, as
	// CheckCurrency reads it ("": none, plain numbers). It names, never
	// converts: every amount stays in hundredths.
	Currency string
	// CareCooling is how long a player's raise or removal of a
	// responsible-gaming limit waits before it applies (0:
	// DefaultCareCooling; docs/players.md).
	CareCooling time.Duration
	// SnapshotEvery is how many rounds a table plays between the snapshots
	// of its state that let a start replay only the end of its log (0:
	// DefaultSnapshotEvery; negative: no snapshots, a start replays the
	// whole log).
	SnapshotEvery int
	// MaxSockets bounds the WebSockets one user holds open at once, over
	// every table (0: DefaultMaxSockets; negative: no limit).
	MaxSockets int
	// SocketRate is how many messages a second the server reads from one
	// WebSocket, in bursts of up to SocketBurst (0: DefaultSocketRate and
	// DefaultSocketBurst; a negative rate: no limit). Messages sent faster
	// wait their turn.
	SocketRate  float64
	SocketBurst int
	// CommandRate is how many table commands a second one user sends over
	// HTTP, in bursts of up to CommandBurst, as a socket's messages are
	// paced; beyond, 429 with Retry-After (0:
	// DefaultSocketRate and DefaultSocketBurst; negative rate: no limit).
	// An administrator's are not counted.
	CommandRate  float64
	CommandBurst int
	// SnapshotRecords is how many records a table writes between its
	// snapshots whether it plays rounds or not (0:
	// actor.DefaultSnapshotRecords; negative: rounds only).
	SnapshotRecords int
	// SocketPing is how often the server pings each WebSocket; a client
	// that has not answered (pong) by the next ping is gone and its socket
	// closes (0: DefaultSocketPing; negative: no pings).
	SocketPing time.Duration
	// MaxBoxesWithoutBet is how many boxes one player may hold at a table
	// without a bet of his on them (AR-21); he bets on them to take more
	// (0: DefaultMaxBoxesWithoutBet; negative: no limit).
	MaxBoxesWithoutBet int
	// ReseatAfter is how long a box given up for no bet is not its
	// holder's again; UnbetWindow how long the boxes a player was given up
	// for no bet count against MaxBoxesWithoutBet (a round he plays with a
	// bet clears them); SitsPerMinute how many times one player sits down
	// at a table in a minute (three accounts re-sitting at
	// once held every box for ever; 0: actor.DefaultReseatAfter,
	// DefaultUnbetWindow, DefaultSitsPerMinute; negative: none).
	ReseatAfter   time.Duration
	UnbetWindow   time.Duration
	SitsPerMinute int
	// CashApproval is the largest walk-in buy-in or cash-out a dealer makes
	// alone at a live table, and FloatLimit the most chips a table's cash
	// float may have out (internal/live): a table's options
	// cash_approval and float_limit override them (0: DefaultCashApproval,
	// DefaultFloatLimit; negative: no limit).
	CashApproval money.Amount
	FloatLimit   money.Amount
	// CashShift is the shift over which a walk-in's buy-ins, and those a
	// dealer makes alone, are summed against cash_approval (0:
	// live.DefaultCashShift; negative: each buy-in alone).
	CashShift time.Duration

	// Abuse and limits (docs/server.md): what one client may take. A zero
	// field takes its default (DefaultReadTimeout …); a negative one turns
	// the limit off.
	ReadTimeout     time.Duration // to read a request, its body included
	WriteTimeout    time.Duration // to write an answer; a WebSocket is not bound by it
	IdleTimeout     time.Duration // a keep-alive connection waiting for its next request
	MaxConnsPerAddr int           // connections open at once from one client address (IPv6: its /64)
	// Failed logins: for one name (case-folded) from one address,
	// LoginNameBurst, then one per LoginNameEvery; for one name from the
	// addresses it has not logged in from, LoginNameAllBurst, then one per
	// LoginNameAllEvery; from one address, LoginAddrBurst, then one per
	// LoginAddrEvery. Beyond, 429 with Retry-After. A success costs nothing.
	LoginNameBurst    int
	LoginNameEvery    time.Duration
	LoginNameAllBurst int
	LoginNameAllEvery time.Duration
	LoginAddrBurst    int
	LoginAddrEvery    time.Duration
	// Registrations from one address: RegisterBurst, then one per
	// RegisterEvery (each is a welcome credit and a password hash).
	RegisterBurst int
	RegisterEvery time.Duration
	// Refused requests (answered 4xx) from one address: RefusalBurst,
	// then one per RefusalEvery; beyond, each refusal waits Tarpit before
	// it is answered (a client sending bad requests at full speed slows
	// itself down, not the tables).
	RefusalBurst int
	RefusalEvery time.Duration
	Tarpit       time.Duration
	// Password hashes (bcrypt) computed at once (default: half the CPUs,
	// at least 1), and requests that may wait for one beyond those;
	// further ones are answered 503 at once.
	HashWorkers int
	HashQueue   int
	// HashPerAddr is the share of the hashing (computed and waiting) one
	// client address may hold (0: DefaultHashPerAddr; negative: none).
	HashPerAddr int
	// Successful logins: of one account, LoginOKNameBurst then one per
	// LoginOKNameEvery; from one address, LoginOKAddrBurst then one per
	// LoginOKAddrEvery (429 with Retry-After beyond).
	LoginOKNameBurst int
	LoginOKNameEvery time.Duration
	LoginOKAddrBurst int
	LoginOKAddrEvery time.Duration
	// SweepEvery is how often the sessions idle past Timing.SessionIdle
	// are deleted from the store (0: DefaultSweepEvery; negative: never).
	SweepEvery time.Duration
	// MaxIDLength bounds a command_id or client_id in bytes (at most
	// MaxIDLengthLimit; 0 or negative: the default, never unbounded).
	MaxIDLength int
	// SeedKey seals the seed of each live shoe in the log, and a
	// snapshot's shoes (seal.go); a start needs the key the store's sealed
	// seeds were sealed with. nil: seeds are written in the clear (tests;
	// `sabot serve` always has a key).
	SeedKey *seal.Key
	// ShoeReads is how many GET /api/shoes/{id} (no login needed) the
	// server answers a second, from everybody together; more are refused
	// with 429 and Retry-After (0: DefaultShoeReads; negative: no limit).
	ShoeReads float64
	// ShoeReadsPerAddr is how many of those one client address is
	// answered a second, in a second's burst (one client at
	// 100/s denied everybody's verification; 0: DefaultShoeReadsPerAddr;
	// negative: no limit).
	ShoeReadsPerAddr float64
	// PublicReads is how many requests a second one address makes of the
	// routes that need no login and make tables work — GET /api/tables,
	// GET /api/tables/{id}, POST /api/replay, a table's edge, rules and
	// strategy — in bursts of PublicReadBurst (0:
	// DefaultPublicReads, DefaultPublicReadBurst; negative: no limit).
	PublicReads     float64
	PublicReadBurst int

	// MetricsPrivate keeps GET /metrics (money owed to players among its
	// figures) to MetricsToken as a bearer token, or an administrator's
	// session; false: anybody may read it (tests). `sabot serve` keeps it
	// private.
	MetricsPrivate bool
	MetricsToken   string

	// Wallet is the operator's wallet (docs/wallet.md): the
	// players who come from the operator's site (GET /launch) stake and
	// win on it, every call written to the store's outbox first; nil: the
	// built-in wallets only. It needs a store that is a sabot.Outbox and a
	// Currency.
	Wallet *wallet.Client
	// WalletTimeout is a debit's time limit: past it, the stake does not
	// count and the debit is rolled back (0: wallet.DefaultTimeout, 3 s).
	WalletTimeout time.Duration
	// WalletUndeliveredAfter is when a credit or a rollback the operator
	// has not answered becomes a significant event (0:
	// operator.DefaultUndeliveredAfter, a minute).
	WalletUndeliveredAfter time.Duration
	// WalletRetryMost is the longest wait between two tries of a credit
	// or a rollback the operator has not answered (each wait doubles from
	// a quarter of a second up to it; 0: 30 s).
	WalletRetryMost time.Duration
	// WalletRetryRefused is the first wait before a credit or rollback the
	// operator refused is sent again under a new transaction ID; each
	// next wait doubles, up to an hour, for WalletRetries tries (0:
	// operator.DefaultRetryRefused, a minute; operator.DefaultRetries; negative: never by
	// sabot, the pit resolves it).
	WalletRetryRefused time.Duration
	WalletRetries      int

	// Several nodes on one store (internal/cluster). Shared: other
	// processes serve the same store (PostgreSQL), the tables are shared
	// out between the live nodes and requests for a table another node
	// owns are forwarded to it; false: this process is the store's only
	// one (a SQLite file, which it locks) and serves every table.
	Shared bool
	// Advertise is the URL the other nodes reach this one at ("": the
	// listen address, the machine's name where it listens on every
	// address).
	Advertise string
	// Lease is how long a node's lease lasts unrenewed: a dead node's
	// tables are taken over within it and a scan (0: cluster.DefaultLease).
	Lease time.Duration

	cluster cluster.Cluster // the node's part in its cluster (internal/cluster)

	guardOnce sync.Once
	guard     *guards
	floor     floorRatings // the floor's ratings, read at most once a minute (floor.go)
	careOnce  sync.Once
	careSys   *care.Care // player care (care.go)
	shoeReads readLimit
	// shoeAddr and publicAddr are the per-address buckets of the shoe
	// reads and of the public routes (made at Open).
	shoeAddr, publicAddr *throttle
	touches              touches // sessions' last use, written together (touch.go)
	starting             atomic.Bool

	ln      net.Listener
	srv     *http.Server
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	metrics *metrics

	mu       sync.Mutex
	tables   map[int64]*actor.Table
	host     *actor.Host // what the tables ask of the server (tables.go)
	system   int64       // the table row whose log is the significant-event log
	accounts sync.Map    // "kind/owner" → account ID
	// op is the operator's wallet (operator.go), made at its first use.
	op      *operator.Operator
	opOnce  sync.Once
	sockets sockets
	// socketWrites counts the writes to the WebSockets' connections (the
	// tests and BenchmarkDecisionSockets read it: writes per decision).
	socketWrites atomic.Int64
}

// Open recovers every table from its log and starts serving.
func (s *Server) Open() error {
	if s.Store == nil {
		return errors.New("server: no store")
	}
	if s.metrics == nil {
		s.metrics = newMetrics()
	}
	if s.RTPWatch && s.theories == nil {
		s.theories = report.NewTheories()
	}
	if s.MaxIDLength > MaxIDLengthLimit {
		return fmt.Errorf("server: command IDs of %d bytes: at most %d", s.MaxIDLength, MaxIDLengthLimit)
	}
	cur, err := CheckCurrency(s.Currency)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	s.Currency = cur
	if err := s.checkStore(); err != nil {
		return err
	}
	if s.Wallet != nil {
		if s.Currency == "" {
			return errors.New("server: the operator's wallet needs the operator's currency (--currency)")
		}
	}
	// A database opened read-only (a file without write permission) reads
	// well and refuses every login and bet: refuse to start on it.
	if wc, ok := s.Store.(sabot.WriteChecker); ok {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := wc.CheckWritable(ctx)
		cancel()
		if err != nil {
			return fmt.Errorf("the store does not accept writes (a read-only database file or directory?): %w", err)
		}
	}
	addr := s.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.ln = ln
	if err := s.start(); err != nil {
		ln.Close()
		s.ln = nil
		return err
	}
	serve := ln
	if n := countOr(s.MaxConnsPerAddr, DefaultMaxConnsPerAddr); n > 0 {
		serve = &addrListener{Listener: ln, max: n, refused: s.metrics.refused.Inc, open: map[string]int{}, exempt: s.cluster.IsNode}
	}
	read := durationOr(s.ReadTimeout, DefaultReadTimeout)
	header := 10 * time.Second
	if read > 0 {
		header = min(header, read)
	}
	// WriteTimeout would end a WebSocket: its handler lifts the deadlines
	// (handleWS) once the connection is its own.
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: header, ReadTimeout: read,
		WriteTimeout: durationOr(s.WriteTimeout, DefaultWriteTimeout), IdleTimeout: durationOr(s.IdleTimeout, DefaultIdleTimeout),
		BaseContext: func(net.Listener) context.Context { return s.ctx }}
	go s.srv.Serve(serve)
	if s.cluster.Joined() && s.Shared {
		s.wg.Go(func() { s.cluster.Run(s.ctx) })
	}
	if s.Wallet != nil {
		s.wg.Go(func() { s.deliver(s.ctx) })
	}
	s.watchRevocations() // sessions ended and players excluded on other nodes (revoke.go)
	s.runTouches()       // sessions' last use, written together (touch.go)
	s.runRollups()       // the reports' sums by hour and day (rollups.go)
	s.runSweeps()        // the sessions over (rollups.go)
	s.logger().Info("listening", "url", s.URL(), "tables", s.Serving(), "test_mode", s.TestMode)
	return nil
}

// Starting holds the server not ready (/readyz answers 503) while the
// process finishes its start after Open (`sabot serve`'s default tables),
// so that nothing is sent to it before its tables are there.
func (s *Server) Starting(on bool) { s.starting.Store(on) }

// Serving is how many tables this server serves now.
func (s *Server) Serving() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables)
}

// start loads the tables: each is rebuilt from its log and goes on.
func (s *Server) start() error {
	if s.metrics == nil {
		s.metrics = newMetrics()
	}
	if o, ok := s.Store.(sabot.CommitObserver); ok {
		o.ObserveCommits(s.metrics.commit)
	}
	s.shoeReads.init(s.ShoeReads, DefaultShoeReads)
	s.shoeAddr = rateThrottle(s.ShoeReadsPerAddr, DefaultShoeReadsPerAddr, 0)
	s.publicAddr = rateThrottle(s.PublicReads, DefaultPublicReads, countOr(s.PublicReadBurst, DefaultPublicReadBurst))
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.tables = map[int64]*actor.Table{}
	s.host = s.tableHost()
	s.initCluster()
	if s.ln != nil {
		if err := s.join(s.ctx); err != nil {
			return err
		}
	}
	if s.cluster.Joined() && s.Shared {
		// The node's share of the free tables, at once; the node loop
		// goes on from there.
		if err := s.cluster.ShareOut(s.ctx); err != nil {
			s.cancel()
			s.wg.Wait()
			s.cluster.Leave()
			return err
		}
		self := s.cluster.Self()
		s.event(s.ctx, nil, tablelog.NodeJoined{Node: self.ID, URL: self.URL, Tables: len(s.tables), Text: fmt.Sprintf("node %s (%s) joined with %d tables", self.ID, self.URL, len(s.tables))}, nil, "")
		return nil
	}
	ts, err := s.Store.Tables(s.ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if t.IsEventLog() {
			s.system = t.ID
			continue
		}
		if _, err := s.claim(s.ctx, t); err != nil {
			// The tables started stop: a server that does not start
			// writes nothing more.
			s.cancel()
			s.wg.Wait()
			s.cluster.Leave()
			return fmt.Errorf("table %d: %w", t.ID, err)
		}
	}
	return nil
}

// startTable rebuilds a table from its log under the epoch of its lease (0:
// not fenced) and runs its actor.
func (s *Server) startTable(t *sabot.Table, epoch int64) (*actor.Table, error) {
	a, err := actor.Start(s.host, t, epoch)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.tables[t.ID] = a
	s.mu.Unlock()
	s.metrics.tables.Inc()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		a.Run(s.ctx)
		if a.Moved() {
			s.moved(a)
		}
	}()
	return a, nil
}

// Close stops the service gracefully: no new requests, WebSockets closed,
// every table suspended between two commands (its rounds resume from the
// log at the next start).
func (s *Server) Close() error {
	var err error
	if s.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.cancel() // WebSocket loops and tables stop
		err = s.srv.Shutdown(ctx)
		if errors.Is(err, context.DeadlineExceeded) {
			// A connection still busy (or new, with no request yet)
			// after the grace period: the tables are suspended already,
			// nothing is lost by closing it.
			s.logger().Warn("connections still open after 5 s of shutdown: closed", "err", err)
			err = s.srv.Close()
		}
	} else if s.cancel != nil {
		s.cancel()
	}
	s.wg.Wait()
	s.cluster.Leave()
	return err
}

// URL is the base URL of the running server.
func (s *Server) URL() string {
	if s.ln == nil {
		return ""
	}
	return "http://" + s.ln.Addr().String()
}

func (s *Server) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Server) timing() actor.Timing { return s.Timing.WithDefaults() }

func randomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
