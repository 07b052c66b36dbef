package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/cluster"
	"sabot/internal/live"
	"sabot/internal/operator"
	"sabot/internal/seal"
	"sabot/internal/server"
	"sabot/internal/store"
	"sabot/internal/wallet"
	"sabot/money"
)

// AdminPasswordEnv is the environment variable that holds the password of
// the administrator `sabot serve --admin NAME` creates, and that `sabot
// bots` logs in with.
const AdminPasswordEnv = "SABOT_ADMIN_PASSWORD"

// MetricsTokenEnv holds the bearer token GET /metrics answers to (beside
// the pit's session), unless --metrics-token-file names a file of it.
const MetricsTokenEnv = "SABOT_METRICS_TOKEN"

// serveConfig is `sabot serve`'s configuration: a field per flag (flags),
// read by run.
type serveConfig struct {
	addr, dsn, admin, logFormat string
	debugAddr                   string
	testMode, defaultTables     bool
	rtpWatch                    bool
	timing                      actor.Timing
	bcryptCost                  int
	welcome                     int64
	cashApproval, floatLimit    int64
	currency, reportsDSN        string
	careCooling, rollupEvery    time.Duration
	snapshotEvery               int
	lim                         server.Server
	wsPerUser, wsBurst          int
	boxesWithoutBet             int
	reseatAfter                 time.Duration
	unbetWindow                 time.Duration
	sitsPerMinute               int
	cashShift                   time.Duration
	metricsTokenFile            string
	metricsPublic               bool
	wsRate                      float64
	seedKeyFile                 string
	shoeReads                   float64
	advertise                   string
	lease, drain, wsPing        time.Duration
	walletURL                   string
	walletSecretFile            string
	walletTimeout               time.Duration
	walletRetry                 time.Duration
	walletRetries               int
}

func newServeCmd(e *env) *cobra.Command {
	cfg := &serveConfig{timing: actor.DefaultTiming, lim: server.Server{
		ReadTimeout: server.DefaultReadTimeout, WriteTimeout: server.DefaultWriteTimeout, IdleTimeout: server.DefaultIdleTimeout,
		MaxConnsPerAddr: server.DefaultMaxConnsPerAddr,
		LoginNameBurst:  server.DefaultLoginNameBurst, LoginNameEvery: server.DefaultLoginNameEvery,
		LoginNameAllBurst: server.DefaultLoginNameAllBurst, LoginNameAllEvery: server.DefaultLoginNameAllEvery,
		LoginAddrBurst: server.DefaultLoginAddrBurst, LoginAddrEvery: server.DefaultLoginAddrEvery,
		RegisterBurst: server.DefaultRegisterBurst, RegisterEvery: server.DefaultRegisterEvery,
		RefusalBurst: server.DefaultRefusalBurst, RefusalEvery: server.DefaultRefusalEvery, Tarpit: server.DefaultTarpit,
		HashQueue: server.DefaultHashQueue, MaxIDLength: server.DefaultMaxIDLength,
		HashPerAddr:      server.DefaultHashPerAddr,
		LoginOKNameBurst: server.DefaultLoginOKNameBurst, LoginOKNameEvery: server.DefaultLoginOKNameEvery,
		LoginOKAddrBurst: server.DefaultLoginOKAddrBurst, LoginOKAddrEvery: server.DefaultLoginOKAddrEvery,
		SweepEvery:       server.DefaultSweepEvery,
		ShoeReadsPerAddr: server.DefaultShoeReadsPerAddr, PublicReads: server.DefaultPublicReads, PublicReadBurst: server.DefaultPublicReadBurst,
		CommandRate: server.DefaultSocketRate, CommandBurst: server.DefaultSocketBurst, SnapshotRecords: actor.DefaultSnapshotRecords,
	}} // the limits' flags
	c := &cobra.Command{
		Use:   "serve",
		Short: "serve live tables: HTTP JSON API, a WebSocket per table, the ledger, game recall and crash recovery",
		Long: `serve runs the table service (docs/server.md). Every table is rebuilt from its log at start:
rounds in play when the server stopped (or was killed) resume. The first administrator is
created with --admin NAME and the password in $` + AdminPasswordEnv + `.

The seeds of live shoes are sealed in the log with a key kept outside the database:
--seed-key-file FILE or $` + seal.KeyEnv + ` (64 hex digits). A SQLite store without either uses
the file DB.seed-key beside the database, made on the first start; a PostgreSQL store needs one.

Several nodes: serve processes started on one PostgreSQL database share its tables out
(docs/server.md, "Several nodes"): each table is served by the node that holds its lease,
any node answers any request (forwarding it to the table's node), a node that dies has
its tables taken over within --lease, and SIGTERM hands a node's tables to the others
between rounds before it exits. Every node needs the same seed key; --advertise URL where
the other nodes cannot reach this one at its listen address. A SQLite file is served by
one process only.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cfg.run(cmd, e) },
	}
	cfg.flags(c)
	return c
}

// run serves until a signal: the flags checked before anything is
// written, then the store, the server and its tables.
func (cfg *serveConfig) run(cmd *cobra.Command, e *env) error {
	var h slog.Handler = slog.NewTextHandler(e.stderr, nil)
	if cfg.logFormat == "json" {
		h = slog.NewJSONHandler(e.stderr, nil)
	}
	logger := slog.New(h)
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cur, err := server.CheckCurrency(cfg.currency)
	if err != nil {
		return refused("sabot serve: --%v", err)
	}
	// The flags are checked before anything is written: a mistyped
	// flag leaves no store and no seed key behind.
	if err := checkListen(cfg.addr); err != nil {
		return refused("sabot serve: --addr %q: %v", cfg.addr, err)
	}
	if cfg.lease < 100*time.Millisecond {
		return refused("sabot serve: --lease %v: give 100ms or more", cfg.lease)
	}
	if cfg.advertise != "" {
		if u, err := url.Parse(cfg.advertise); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return refused("sabot serve: --advertise %q: give the URL other nodes reach this one at, http://host:port", cfg.advertise)
		}
	}
	if cfg.lim.MaxIDLength < 1 || cfg.lim.MaxIDLength > server.MaxIDLengthLimit {
		return refused("sabot serve: --max-id-length %d: give 1 to %d", cfg.lim.MaxIDLength, server.MaxIDLengthLimit)
	}
	if store.IsPostgres(cfg.dsn) && cfg.seedKeyFile == "" && os.Getenv(seal.KeyEnv) == "" {
		_, err := seedKey(cfg.dsn, cfg.seedKeyFile, logger) // refused: said before connecting
		return err
	}
	// One process serves a SQLite file (a second one would deal its
	// tables' rounds again); the lock goes with the process.
	unlock, err := store.Lock(cfg.dsn)
	if sabot.ErrorCode(err) == sabot.ECONFLICT {
		return failed("sabot serve: %s", sabot.ErrorMessage(err))
	} else if err != nil {
		return failed("sabot serve: %v", err)
	}
	defer unlock()
	st, err := store.Open(ctx, cfg.dsn)
	if err != nil {
		return failed("sabot serve: %v", err)
	}
	defer st.Close()
	var reportStore sabot.Store
	if cfg.reportsDSN != "" {
		if !store.IsPostgres(cfg.reportsDSN) {
			return refused("sabot serve: --reports-db %q: give a postgres:// URL of a replica of --db", cfg.reportsDSN)
		}
		if reportStore, err = store.OpenReadOnly(ctx, cfg.reportsDSN); err != nil {
			return failed("sabot serve: --reports-db: %v", err)
		}
		defer reportStore.Close()
	}
	key, err := seedKey(cfg.dsn, cfg.seedKeyFile, logger)
	if err != nil {
		return err
	}
	opWallet, err := operatorWallet(cfg.walletURL, cfg.walletSecretFile, cur, cfg.walletTimeout)
	if err != nil {
		return err
	}
	s := &server.Server{Store: st, Addr: cfg.addr, Logger: logger, TestMode: cfg.testMode, RTPWatch: cfg.rtpWatch, RollupEvery: cfg.rollupEvery, ReportStore: reportStore, Timing: cfg.timing, BcryptCost: cfg.bcryptCost, WelcomeCredit: cfg.welcome, Currency: cur, CareCooling: cfg.careCooling,
		SnapshotEvery: cfg.snapshotEvery, SeedKey: key, ShoeReads: cfg.shoeReads,
		ReadTimeout: cfg.lim.ReadTimeout, WriteTimeout: cfg.lim.WriteTimeout, IdleTimeout: cfg.lim.IdleTimeout, MaxConnsPerAddr: cfg.lim.MaxConnsPerAddr,
		LoginNameBurst: cfg.lim.LoginNameBurst, LoginNameEvery: cfg.lim.LoginNameEvery, LoginNameAllBurst: cfg.lim.LoginNameAllBurst, LoginNameAllEvery: cfg.lim.LoginNameAllEvery,
		LoginAddrBurst: cfg.lim.LoginAddrBurst, LoginAddrEvery: cfg.lim.LoginAddrEvery,
		RegisterBurst: cfg.lim.RegisterBurst, RegisterEvery: cfg.lim.RegisterEvery, HashWorkers: cfg.lim.HashWorkers, HashQueue: cfg.lim.HashQueue,
		HashPerAddr: cfg.lim.HashPerAddr, LoginOKNameBurst: cfg.lim.LoginOKNameBurst, LoginOKNameEvery: cfg.lim.LoginOKNameEvery,
		LoginOKAddrBurst: cfg.lim.LoginOKAddrBurst, LoginOKAddrEvery: cfg.lim.LoginOKAddrEvery, SweepEvery: cfg.lim.SweepEvery,
		ShoeReadsPerAddr: cfg.lim.ShoeReadsPerAddr, PublicReads: cfg.lim.PublicReads, PublicReadBurst: cfg.lim.PublicReadBurst,
		CommandRate: cfg.lim.CommandRate, CommandBurst: cfg.lim.CommandBurst, SnapshotRecords: cfg.lim.SnapshotRecords,
		RefusalBurst: cfg.lim.RefusalBurst, RefusalEvery: cfg.lim.RefusalEvery, Tarpit: cfg.lim.Tarpit,
		MaxIDLength: cfg.lim.MaxIDLength, MaxSockets: cfg.wsPerUser, SocketRate: cfg.wsRate, SocketBurst: cfg.wsBurst, SocketPing: cfg.wsPing,
		MaxBoxesWithoutBet: cfg.boxesWithoutBet, ReseatAfter: cfg.reseatAfter, UnbetWindow: cfg.unbetWindow, SitsPerMinute: cfg.sitsPerMinute,
		Shared: store.IsPostgres(cfg.dsn), Advertise: cfg.advertise, Lease: cfg.lease,
		Wallet: opWallet, WalletTimeout: cfg.walletTimeout, WalletRetryRefused: cfg.walletRetry, WalletRetries: cfg.walletRetries,
		CashApproval: money.Amount(cfg.cashApproval), FloatLimit: money.Amount(cfg.floatLimit), CashShift: cfg.cashShift}
	s.MetricsPrivate, s.MetricsToken = !cfg.metricsPublic, os.Getenv(MetricsTokenEnv)
	if cfg.metricsTokenFile != "" {
		b, err := os.ReadFile(cfg.metricsTokenFile)
		if err != nil {
			return refused("sabot serve: --metrics-token-file: %v", err)
		}
		s.MetricsToken = strings.TrimSpace(string(b))
	}
	if s.MetricsToken != "" && len(s.MetricsToken) < 16 {
		return refused("sabot serve: the metrics token has %d characters: give 16 or more", len(s.MetricsToken))
	}
	if cfg.admin != "" {
		pw := os.Getenv(AdminPasswordEnv)
		if err := s.EnsureAdmin(ctx, cfg.admin, pw); err != nil {
			return refused("sabot serve: administrator %s: %v (the password is read from $%s)", cfg.admin, err, AdminPasswordEnv)
		}
	}
	s.Starting(true) // /readyz: not before the default tables
	if err := s.Open(); err != nil {
		return failed("sabot serve: %v", err)
	}
	if cfg.defaultTables && s.Eldest(ctx) {
		if err := openDefaultTables(ctx, s, st); err != nil && ctx.Err() == nil {
			s.Close()
			return failed("sabot serve: %v", err)
		} // stopped while it opened them: the shutdown below
	}
	s.Starting(false)
	if cfg.debugAddr != "" {
		url, stopDebug, err := serveDebug(cfg.debugAddr)
		if err != nil {
			s.Close()
			return failed("sabot serve: --debug-addr: %v", err)
		}
		defer stopDebug()
		logger.Info("profiling endpoints", "url", url)
	}
	// After the default tables: the count is what this node serves.
	logger.Info("serving", "url", s.URL(), "tables", s.Serving(), "test_mode", cfg.testMode)
	fmt.Fprintf(e.stdout, "sabot serve: %s\n", s.URL())
	<-ctx.Done()
	if s.Shared {
		// Hand the tables over between rounds, then go.
		dctx, cancel := context.WithTimeout(context.Background(), cfg.drain)
		err := s.Drain(dctx)
		cancel()
		if err != nil {
			logger.Warn("drained in part: the rounds still in play resume on the node that takes their tables", "err", err)
		}
	}
	logger.Info("shutting down: tables suspend, their rounds resume at the next start")
	if err := s.Close(); err != nil {
		return failed("sabot serve: %v", err)
	}
	return nil
}

// flags are serve's flags, each into its field of cfg.
func (cfg *serveConfig) flags(c *cobra.Command) {
	f := c.Flags()
	f.StringVar(&cfg.addr, "addr", ":8080", "listen address")
	f.StringVar(&cfg.dsn, "db", store.DefaultDSN, "the store: a SQLite file, or a postgres:// URL")
	f.StringVar(&cfg.admin, "admin", "", "create this administrator if missing, with the password in $"+AdminPasswordEnv)
	f.BoolVar(&cfg.testMode, "test-mode", false, "allow test-mode tables: forced card orders, every round marked test")
	f.BoolVar(&cfg.rtpWatch, "rtp-watch", false, "watch each table's return to player against the exact figure of its rules: the sabot_rtp metrics, and an rtp-outside significant event when it leaves its band (docs/pit.md); each rule set's figures take seconds of processor, once, in the background")
	f.StringVar(&cfg.reportsDSN, "reports-db", "", "a postgres:// URL of a replica of --db (a hot standby) that the pit's reports over HTTP read, opened read-only: the year's reports beside the tables without taking the primary's processor (docs/server.md, \"Reports on a replica\"; \"\": --db)")
	f.DurationVar(&cfg.rollupEvery, "rollup-every", server.DefaultRollupEvery, "how often the reports' sums by hour and day are brought up to the tables' logs, so that a report over a long period reads days and hours (docs/pit.md, \"Rollups\"; negative: never)")
	f.DurationVar(&cfg.timing.BetWindow, "bet-window", cfg.timing.BetWindow, "betting window, from the first bet to the deal")
	f.BoolVar(&cfg.timing.KeepBetWindow, "keep-bet-window", cfg.timing.KeepBetWindow, "keep the betting window open once every seated box has a bet, until it ends or every seated player says \"deal\" (false: the last seated box's bet deals)")
	f.DurationVar(&cfg.timing.Decision, "decision-time", cfg.timing.Decision, "a player's time to decide a hand, then the default applies")
	f.DurationVar(&cfg.timing.Window, "window-time", cfg.timing.Window, "time for an optional window (insurance, challenge, back bettors' answers)")
	f.DurationVar(&cfg.timing.SessionIdle, "session-idle", cfg.timing.SessionIdle, "a session idle this long must log in again")
	f.DurationVar(&cfg.timing.SeatIdle, "seat-idle", cfg.timing.SeatIdle, "a box held this long with no round dealt is given up (AR-21)")
	f.IntVar(&cfg.boxesWithoutBet, "max-boxes-without-bet", actor.DefaultMaxBoxesWithoutBet, "boxes one player may hold at a table without a bet on them (AR-21; negative: no limit)")
	f.DurationVar(&cfg.reseatAfter, "reseat-after", actor.DefaultReseatAfter, "a box given up for no bet is not its holder's again for this long (AR-21; negative: at once)")
	f.DurationVar(&cfg.unbetWindow, "unbet-window", actor.DefaultUnbetWindow, "the boxes a player was given up for no bet count against --max-boxes-without-bet for this long, until he plays a round with a bet (negative: not counted)")
	f.IntVar(&cfg.sitsPerMinute, "sits-per-minute", actor.DefaultSitsPerMinute, "times one player may sit down at a table in a minute; more get 429 (negative: no limit)")
	f.Int64Var(&cfg.cashApproval, "cash-approval", int64(live.DefaultCashApproval), "a live table's largest walk-in buy-in or cash-out (minor units) the dealer makes alone; over it, the inspector's (a table's cash_approval option overrides it; negative: no limit)")
	f.DurationVar(&cfg.cashShift, "cash-shift", live.DefaultCashShift, "a walk-in's buy-ins, and those a dealer makes alone, are summed over this shift against cash_approval (negative: each buy-in alone)")
	f.Int64Var(&cfg.floatLimit, "float-limit", int64(live.DefaultFloatLimit), "the most chips (minor units) a live table's cash float may have out: no buy-in passes it (a table's float_limit option overrides it; negative: no limit)")
	f.IntVar(&cfg.bcryptCost, "bcrypt-cost", 0, "bcrypt cost of password hashes (0: the default; lower only for tests and load benchmarks)")
	f.StringVar(&cfg.logFormat, "log-format", "text", "log format: text or json")
	f.BoolVar(&cfg.defaultTables, "default-tables", true, "on a store with no table, open one table of each built-in profile")
	f.IntVar(&cfg.snapshotEvery, "snapshot-every", actor.DefaultSnapshotEvery, "rounds a table plays between snapshots of its state, from which a start replays only the end of its log (negative: none)")
	f.StringVar(&cfg.advertise, "advertise", "", "the URL other nodes reach this one at (default: http:// and the listen address, the machine's name for an address on every interface)")
	f.DurationVar(&cfg.lease, "lease", cluster.DefaultLease, "a node's lease on its tables (PostgreSQL): a node that stops renewing it loses them to the others within it")
	f.DurationVar(&cfg.drain, "drain-timeout", cluster.DefaultDrainTimeout, "on SIGTERM, how long a node waits for its rounds in play to end as it hands its tables over (PostgreSQL)")
	f.StringVar(&cfg.walletURL, "wallet", "", "the operator's wallet (docs/wallet.md): players launched from its site stake and win on it; needs --currency and the shared secret in $"+WalletSecretEnv+" or --wallet-secret-file")
	f.StringVar(&cfg.walletSecretFile, "wallet-secret-file", "", "a file holding the secret shared with the operator's wallet (never on the command line)")
	f.DurationVar(&cfg.walletTimeout, "wallet-timeout", wallet.DefaultTimeout, "a debit's time limit: past it the stake does not count and the debit is rolled back")
	f.DurationVar(&cfg.walletRetry, "wallet-retry", operator.DefaultRetryRefused, "money owed (a credit or rollback the operator refused) is sent again after this, each wait doubling up to an hour (negative: only the pit resolves it)")
	f.IntVar(&cfg.walletRetries, "wallet-retries", operator.DefaultRetries, "tries of money owed in all before only the pit resolves it (negative: none)")
	f.StringVar(&cfg.metricsTokenFile, "metrics-token-file", "", "a file holding the bearer token GET /metrics answers to, beside the pit's session (else $"+MetricsTokenEnv+"; never on the command line)")
	f.BoolVar(&cfg.metricsPublic, "metrics-public", false, "serve GET /metrics to anybody (it shows money owed to players: only behind a network of your own)")
	f.StringVar(&cfg.debugAddr, "debug-addr", "", "serve Go's profiling endpoints (/debug/pprof/) on this address, apart from the API (keep it private: 127.0.0.1:6060)")
	// Abuse and limits (docs/server.md): 0 takes the default, a negative value turns a limit off.
	f.DurationVar(&cfg.lim.ReadTimeout, "read-timeout", cfg.lim.ReadTimeout, "time to read a request, its body included (not a WebSocket's messages)")
	f.DurationVar(&cfg.lim.WriteTimeout, "write-timeout", cfg.lim.WriteTimeout, "time to write an answer (not a WebSocket's)")
	f.DurationVar(&cfg.lim.IdleTimeout, "idle-timeout", cfg.lim.IdleTimeout, "a keep-alive connection idle this long is closed")
	f.IntVar(&cfg.lim.MaxConnsPerAddr, "max-conns-per-addr", cfg.lim.MaxConnsPerAddr, "connections open at once from one client address (IPv6: a /64); more are closed at once")
	f.IntVar(&cfg.lim.LoginNameBurst, "login-name-burst", cfg.lim.LoginNameBurst, "failed logins for one name from one address before they are throttled (429)")
	f.DurationVar(&cfg.lim.LoginNameEvery, "login-name-every", cfg.lim.LoginNameEvery, "then one failed login for that name from that address per this interval")
	f.IntVar(&cfg.lim.LoginNameAllBurst, "login-name-all-burst", cfg.lim.LoginNameAllBurst, "failed logins for one name from all the addresses it has not logged in from, before they are throttled (429)")
	f.DurationVar(&cfg.lim.LoginNameAllEvery, "login-name-all-every", cfg.lim.LoginNameAllEvery, "then one such failed login for that name per this interval")
	f.IntVar(&cfg.lim.LoginAddrBurst, "login-addr-burst", cfg.lim.LoginAddrBurst, "failed logins from one address before it is throttled (429)")
	f.DurationVar(&cfg.lim.LoginAddrEvery, "login-addr-every", cfg.lim.LoginAddrEvery, "then one failed login from that address per this interval")
	f.IntVar(&cfg.lim.RegisterBurst, "register-burst", cfg.lim.RegisterBurst, "registrations from one address before it is throttled (429)")
	f.DurationVar(&cfg.lim.RegisterEvery, "register-every", cfg.lim.RegisterEvery, "then one registration from that address per this interval")
	f.IntVar(&cfg.lim.RefusalBurst, "refusal-burst", cfg.lim.RefusalBurst, "requests refused (4xx) from one address before its refusals are held back (--tarpit)")
	f.DurationVar(&cfg.lim.RefusalEvery, "refusal-every", cfg.lim.RefusalEvery, "then one refusal from that address per this interval is answered at once")
	f.DurationVar(&cfg.lim.Tarpit, "tarpit", cfg.lim.Tarpit, "how long a refusal beyond those waits before it is answered")
	f.IntVar(&cfg.lim.HashWorkers, "hash-workers", 0, "password hashes (bcrypt) computed at once (0: half the CPUs, at least 1)")
	f.IntVar(&cfg.lim.HashQueue, "hash-queue", cfg.lim.HashQueue, "requests waiting for a password hash beyond those; more are answered 503")
	f.IntVar(&cfg.lim.HashPerAddr, "hash-per-addr", cfg.lim.HashPerAddr, "password hashes one address may have computed or waiting at once; more from it are answered 503 (negative: no share)")
	f.IntVar(&cfg.lim.LoginOKNameBurst, "login-ok-name-burst", cfg.lim.LoginOKNameBurst, "successful logins of one account before they are throttled (429)")
	f.DurationVar(&cfg.lim.LoginOKNameEvery, "login-ok-name-every", cfg.lim.LoginOKNameEvery, "then one successful login of that account per this interval")
	f.IntVar(&cfg.lim.LoginOKAddrBurst, "login-ok-addr-burst", cfg.lim.LoginOKAddrBurst, "successful logins from one address before they are throttled (429)")
	f.DurationVar(&cfg.lim.LoginOKAddrEvery, "login-ok-addr-every", cfg.lim.LoginOKAddrEvery, "then one successful login from that address per this interval")
	f.DurationVar(&cfg.lim.SweepEvery, "sweep-every", cfg.lim.SweepEvery, "how often the sessions idle past --session-idle are deleted from the store (negative: never)")
	f.Float64Var(&cfg.lim.ShoeReadsPerAddr, "shoe-reads-per-addr", cfg.lim.ShoeReadsPerAddr, "GET /api/shoes/{id} one address is answered a second, beside --shoe-reads for everybody; more get 429 (negative: no limit)")
	f.Float64Var(&cfg.lim.PublicReads, "public-reads", cfg.lim.PublicReads, "requests a second one address without a session makes of GET /api/tables, a table's view, edge, rules and strategy, and POST /api/replay; more get 429 (negative: no limit)")
	f.IntVar(&cfg.lim.PublicReadBurst, "public-read-burst", cfg.lim.PublicReadBurst, "such requests one address may make at once before --public-reads applies")
	f.Float64Var(&cfg.lim.CommandRate, "command-rate", cfg.lim.CommandRate, "table commands a second one user may send over HTTP (as --ws-rate on a socket); more get 429 (negative: no limit)")
	f.IntVar(&cfg.lim.CommandBurst, "command-burst", cfg.lim.CommandBurst, "table commands one user may send over HTTP at once before --command-rate applies")
	f.IntVar(&cfg.lim.SnapshotRecords, "snapshot-records", cfg.lim.SnapshotRecords, "records a table writes between snapshots, rounds played or not, so that a start never replays more (negative: --snapshot-every only)")
	f.IntVar(&cfg.lim.MaxIDLength, "max-id-length", cfg.lim.MaxIDLength, fmt.Sprintf("bytes of a command_id or client_id (at most %d)", server.MaxIDLengthLimit))
	f.StringVar(&cfg.seedKeyFile, "seed-key-file", "", "the file of the key (64 hex digits) that seals live shoes' seeds in the log; or $"+seal.KeyEnv+
		" (default for SQLite: DB.seed-key beside the database, made on first start; PostgreSQL needs one)")
	f.Float64Var(&cfg.shoeReads, "shoe-reads", server.DefaultShoeReads, "GET /api/shoes/{id} (no login) answered a second, from everybody together; more get 429 (negative: no limit)")
	f.DurationVar(&cfg.careCooling, "care-cooling", server.DefaultCareCooling, "how long a player's raise or removal of a responsible-gaming limit waits before it applies (docs/players.md)")
	f.StringVar(&cfg.currency, "currency", "", "ISO 4217 code the pages show money in, e.g. EUR or ARS (a currency of hundredths; none: plain numbers, play money)")
	f.Int64Var(&cfg.welcome, "welcome-credit", 1000_00, "play money (minor units) credited to each new player by the house (0: none; an administrator credits wallets)")
	f.IntVar(&cfg.wsPerUser, "ws-per-user", server.DefaultMaxSockets, "WebSockets one user may hold open at once, over every table (negative: no limit)")
	f.Float64Var(&cfg.wsRate, "ws-rate", server.DefaultSocketRate, "messages a second the server reads from one WebSocket; faster ones wait their turn (negative: no limit)")
	f.IntVar(&cfg.wsBurst, "ws-burst", server.DefaultSocketBurst, "messages one WebSocket may send at once before --ws-rate applies")
	f.DurationVar(&cfg.wsPing, "ws-ping", server.DefaultSocketPing, "how often the server pings each WebSocket; one not answered by the next ping is closed (negative: no pings)")
}

// seedKey is the key that seals live shoes' seeds (docs/server.md, "Shoe
// seeds"): --seed-key-file, else $SABOT_SEED_KEY; else, for a SQLite file,
// the key file beside it, made (0600) when there is none; a PostgreSQL
// store needs one given.
func seedKey(dsn, file string, logger *slog.Logger) (*seal.Key, error) {
	switch env := os.Getenv(seal.KeyEnv); {
	case file != "":
		k, err := seal.ReadKeyFile(file)
		if err != nil {
			return nil, refused("sabot serve: --seed-key-file: %v", err)
		}
		warnReadable(file, logger)
		return k, nil
	case env != "":
		k, err := seal.ParseKey(env)
		if err != nil {
			return nil, refused("sabot serve: $%s: %v", seal.KeyEnv, err)
		}
		return k, nil
	case store.IsPostgres(dsn):
		return nil, refused("sabot serve: a PostgreSQL store needs a seed key kept outside the database: --seed-key-file FILE or $%s (64 hex digits, e.g. openssl rand -hex 32)", seal.KeyEnv)
	}
	path := store.SQLitePath(dsn)
	if path == "" {
		// The database goes with the process: so does its key.
		b := make([]byte, seal.KeySize)
		rand.Read(b)
		return seal.NewKey(b)
	}
	path += ".seed-key"
	k, err := seal.ReadKeyFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if k, err = seal.CreateKeyFile(path); err == nil {
			logger.Info("a new seed key seals the live shoes' seeds: keep it safe, apart from the database's backups", "file", path, "key", k.ID())
			return k, nil
		} else if errors.Is(err, fs.ErrExist) { // another start made it a moment ago
			k, err = seal.ReadKeyFile(path)
		}
	}
	if err != nil {
		return nil, failed("sabot serve: the seed key beside the database: %v", err)
	}
	warnReadable(path, logger)
	return k, nil
}

// warnReadable warns when a key file may be read by others than its owner.
func warnReadable(path string, logger *slog.Logger) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		logger.Warn("the seed key file may be read by others than its owner (chmod 600)", "file", path, "mode", fi.Mode().Perm().String())
	}
}

// defaultTables are the tables a fresh store opens with: one per built-in
// profile, with table limits of 1.00 to 500.00.
var defaultTables = []struct{ name, profile string }{
	{"Buenos Aires", "argentina"},
	{"Madrid", "spain"},
	{"Venezia", "venice"},
	{"En familia", "family"},
	{"Las Vegas S17", "vegas-s17"},
	{"Las Vegas H17", "vegas-h17"},
}

// checkListen refuses a listen address that is not host:port (the host
// may be empty: every interface; the port a number or a service's name).
func checkListen(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("give host:port, e.g. :8080 or 127.0.0.1:8080")
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("port %q is not a port number", port)
	}
	return nil
}

// openDefaultTables opens the default tables when the store has no game
// table yet, so that a first `sabot serve` has a lobby to show. A fresh
// store has no staff: its tables deal their new shoes without the
// inspector's authorisation and a player's cut (player_cut=false; AR-07,
// EG-02), which a table the pit opens takes from its profile.
func openDefaultTables(ctx context.Context, s *server.Server, st sabot.Store) error {
	tables, err := st.Tables(ctx)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if !t.IsEventLog() {
			return nil
		}
	}
	for _, d := range defaultTables {
		t := &sabot.Table{Name: d.name, Profile: d.profile, Options: map[string]string{"min_bet": "100", "max_bet": "50000", "player_cut": "false"}}
		if _, err := s.CreateTable(ctx, t); err != nil {
			return fmt.Errorf("default table %s: %w", d.name, err)
		}
	}
	return nil
}

// serveDebug serves net/http/pprof on an address of its own, so that the
// profiling endpoints never share the public API's listener.
func serveDebug(addr string) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux}
	go hs.Serve(ln)
	return "http://" + ln.Addr().String() + "/debug/pprof/", func() { hs.Close() }, nil
}

// WalletSecretEnv holds the secret shared with the operator's wallet.
const WalletSecretEnv = "SABOT_WALLET_SECRET"

// operatorWallet is the operator's wallet of --wallet (nil: none), its
// secret read from a file or the environment, never the command line.
func operatorWallet(rawURL, secretFile, currency string, timeout time.Duration) (*wallet.Client, error) {
	if rawURL == "" {
		if secretFile != "" {
			return nil, refused("sabot serve: --wallet-secret-file without --wallet")
		}
		return nil, nil
	}
	if u, err := url.Parse(rawURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, refused("sabot serve: --wallet %q: give the operator's wallet's URL, https://host/path", rawURL)
	}
	if currency == "" {
		return nil, refused("sabot serve: --wallet needs --currency, the operator's currency (ISO 4217, e.g. EUR)")
	}
	if timeout <= 0 {
		return nil, refused("sabot serve: --wallet-timeout %v: give a positive time limit", timeout)
	}
	secret := os.Getenv(WalletSecretEnv)
	if secretFile != "" {
		b, err := os.ReadFile(secretFile)
		if err != nil {
			return nil, refused("sabot serve: --wallet-secret-file: %v", err)
		}
		secret = strings.TrimSpace(string(b))
	}
	if len(secret) < 16 {
		return nil, refused("sabot serve: --wallet needs the shared secret (16 bytes or more) in $%s or --wallet-secret-file", WalletSecretEnv)
	}
	return &wallet.Client{URL: rawURL, Secret: []byte(secret), HTTP: &http.Client{}, Timeout: timeout}, nil
}
