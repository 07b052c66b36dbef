package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/cluster"
	"sabot/internal/httpjson"
	"sabot/internal/recall"
	"sabot/internal/webapi"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/web"
)

// Handler returns the service's HTTP handler.
func (s *Server) Handler() http.Handler {
	if s.metrics == nil {
		s.metrics = newMetrics()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	mux.Handle("GET /metrics", s.metricsGuard(s.metrics.handler()))

	mux.HandleFunc("GET /api/site", s.handleSite)
	mux.HandleFunc("POST /api/register", s.handleRegister)
	mux.HandleFunc("POST /api/login", s.handleLogin)
	mux.HandleFunc("POST /api/launch", s.handleLaunch) // a player from the operator's site
	mux.HandleFunc("GET /launch", s.handleLaunchPage)
	mux.HandleFunc("POST /api/logout", s.authed(s.handleLogout))
	mux.HandleFunc("GET /api/me", s.authed(s.handleMe))
	mux.HandleFunc("POST /api/admin/credit", s.admin(s.handleCredit))
	mux.HandleFunc("GET /api/admin/events", s.admin(s.handleEvents))
	mux.HandleFunc("GET /api/admin/wallet/owed", s.admin(s.handleOwed))
	mux.HandleFunc("GET /api/admin/reports/tables", s.admin(s.handleReportTables)) // reports.go
	mux.HandleFunc("GET /api/admin/reports/players", s.admin(s.handleReportPlayers))
	mux.HandleFunc("GET /api/admin/reports/advantage", s.admin(s.handleReportAdvantage))
	mux.HandleFunc("POST /api/admin/reports/jobs", s.admin(s.handleReportJobStart))
	mux.HandleFunc("GET /api/admin/reports/jobs/{id}", s.admin(s.handleReportJob))
	mux.HandleFunc("DELETE /api/admin/reports/jobs/{id}", s.admin(s.handleReportJobCancel))
	mux.HandleFunc("POST /api/admin/wallet/owed/{id}/resolve", s.admin(s.handleResolveOwed))

	mux.HandleFunc("POST /api/tables", s.admin(s.handleCreateTable))
	mux.HandleFunc("POST /api/admin/staff", s.admin(s.handleCreateStaff))
	mux.HandleFunc("GET /api/admin/players", s.admin(s.playerCare().HandlePlayers))
	mux.HandleFunc("GET /api/admin/floor", s.admin(s.playerCare().HandleFloor))
	mux.HandleFunc("POST /api/admin/players/{name}/block", s.admin(s.playerCare().HandleBlock))
	mux.HandleFunc("POST /api/admin/players/{name}/unblock", s.admin(s.playerCare().HandleUnblock))
	mux.HandleFunc("POST /api/admin/devices", s.admin(s.handleIssueDevice))
	mux.HandleFunc("GET /api/admin/devices", s.admin(s.handleDevices))
	mux.HandleFunc("POST /api/admin/devices/{id}/revoke", s.admin(s.handleRevokeDevice))
	mux.HandleFunc("POST /api/tables/{id}/cards", s.handleDeviceCard) // a card reader: authenticated by its device token
	mux.Handle("GET /api/tables", s.perAddr(s.publicAddr, "lobby reads", http.HandlerFunc(s.handleTables)))
	mux.Handle("GET /api/tables/{id}", s.perAddr(s.publicAddr, "table reads", http.HandlerFunc(s.handleTable)))
	mux.HandleFunc("GET /api/tables/{id}/walk-ins", s.authed(s.handleWalkIns)) // a live table's walk-ins and their chips, for its staff
	mux.HandleFunc("GET /api/tables/{id}/ws", s.handleWS)                      // authenticates: its socket belongs to the session
	// The table commands, each at POST /api/tables/{id}/NAME; an
	// administrator's refused to anyone else (403).
	for _, c := range actor.Ops() {
		mux.HandleFunc(commandRoute(c), s.authed(s.handleCommand(c)))
	}
	mux.HandleFunc("GET /api/rounds/{id}", s.authed(s.handleRound))
	mux.HandleFunc("GET /api/me/rounds", s.authed(s.handleMyRounds))
	mux.HandleFunc("POST /api/me/password", s.authed(s.handlePassword))
	mux.HandleFunc("GET /api/me/care", s.authed(s.playerCare().HandleCare))
	mux.HandleFunc("POST /api/me/care/limits", s.authed(s.playerCare().HandleLimit))
	mux.HandleFunc("POST /api/me/care/reality", s.authed(s.playerCare().HandleReality))
	mux.HandleFunc("POST /api/me/care/exclusion", s.authed(s.playerCare().HandleExclusion))
	mux.HandleFunc("GET /api/tables/{id}/history", s.authed(s.handleTableHistory))
	mux.Handle("POST /api/replay", s.perAddr(s.publicAddr, "replays", http.HandlerFunc(s.handleReplay)))
	mux.Handle("GET /api/shoes/{id}", s.perAddr(s.shoeAddr, "shoe reads", http.HandlerFunc(s.handleShoe)))

	// The web client and the API it reads besides: the house
	// edge, the strategy card, the rules in plain words.
	// The calculator's siblings are throttled per address before they
	// ask a table for its view; the calculator has its own
	// budget.
	calc := http.NewServeMux()
	(&webapi.API{Tables: liveTables{s}, ClientKey: func(r *http.Request) string { return clientKey(s.clientAddr(r)) }}).Register(calc)
	for _, p := range []string{"GET /api/tables/{id}/edge", "GET /api/tables/{id}/strategy.svg", "GET /api/tables/{id}/rules", "GET /api/tables/{id}/strategy"} {
		mux.Handle(p, s.perAddr(s.publicAddr, "table reads", calc))
	}
	mux.Handle("GET /api/tables/{id}/ev", calc)
	mux.Handle("/", web.Handler())
	return s.cluster.Forward(s.requireJSON(mux))
}

// metricsGuard keeps /metrics to its token or the pit, where the server
// keeps it private (MetricsPrivate).
func (s *Server) metricsGuard(h http.Handler) http.Handler {
	if !s.MetricsPrivate {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, _ := bearer(r.Header.Get("Authorization"))
		if s.MetricsToken != "" && token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.MetricsToken)) == 1 {
			h.ServeHTTP(w, r)
			return
		}
		u, _, err := s.authenticate(r, false)
		switch {
		case err != nil:
			s.writeError(w, r, sabot.Errorf(sabot.EUNAUTHORIZED, "the metrics need their token or the pit's session"))
		case !u.Admin:
			s.writeError(w, r, sabot.Errorf(sabot.EFORBIDDEN, "administrators only"))
		default:
			h.ServeHTTP(w, r)
		}
	})
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(context.Cause(r.Context()), cluster.ErrDBUnreachable) {
		err = cluster.UnreachableError() // cut as the node lost its database
	}
	code := sabot.ErrorCode(err)
	if errors.Is(err, context.Canceled) {
		code = sabot.ECONFLICT
		err = sabot.Errorf(code, "the request was cancelled")
	}
	if code == sabot.EINTERNAL {
		s.logger().Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	s.metrics.errors.WithLabelValues(code).Inc()
	if st := httpjson.Status(code); st >= 400 && st < 500 {
		s.tarpit(r)
	}
	httpjson.WriteError(w, err)
}

// tarpit holds the answer to a refused request when its address has been
// refused too often of late (Server.RefusalBurst, RefusalEvery): a client
// sending bad requests at full speed waits Tarpit for each, on its own
// connections, instead of taking the cores from the tables.
func (s *Server) tarpit(r *http.Request) {
	g := s.guards()
	if g.tarpit <= 0 || g.refusals.take(clientKey(s.clientAddr(r)), s.now()) == 0 {
		return
	}
	s.metrics.tarpitted.Inc()
	t := time.NewTimer(g.tarpit)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) { httpjson.Write(w, status, v) }

// SiteView is what the login page says before anyone logs in: what a new
// wallet is credited, the rules of names and passwords, and the currency
// money is shown in (none: play money, plain numbers).
type SiteView struct {
	WelcomeCredit money.Amount `json:"welcome_credit"`
	Currency      string       `json:"currency,omitempty"`
	MaxName       int          `json:"max_name"`
	MinPassword   int          `json:"min_password"`
	MaxPassword   int          `json:"max_password"`
}

func (s *Server) handleSite(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, SiteView{WelcomeCredit: money.Amount(max(s.WelcomeCredit, 0)), Currency: s.Currency, MaxName: MaxName, MinPassword: MinPassword, MaxPassword: MaxPassword})
}

// handleHealth is the liveness check: the process serves.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "tables": len(s.tableList())})
}

// handleReady is the readiness check: the store accepts writes (on a
// read-only database /healthz said ok while every login
// failed). 503 `unavailable` otherwise.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if s.starting.Load() {
		s.writeError(w, r, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second, Message: "not ready: the server is still starting (opening its tables)"})
		return
	}
	if s.cluster.Unreachable() {
		s.writeError(w, r, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: cluster.UnreachableRetry, Message: "not ready: this node cannot reach the database"})
		return
	}
	if s.cluster.Draining() {
		s.writeError(w, r, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: cluster.UnreachableRetry, Message: "not ready: this node is handing its tables over to stop"})
		return
	}
	if err := s.ready(r.Context()); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// readyEvery is how often the readiness check writes to the store at
// most: a check is a write transaction, and probes may come from anyone.
const readyEvery = time.Second

func (s *Server) ready(ctx context.Context) error {
	wc, ok := s.Store.(sabot.WriteChecker)
	if !ok {
		return nil
	}
	g := s.guards()
	g.readyMu.Lock()
	defer g.readyMu.Unlock()
	if !g.readyAt.IsZero() && time.Since(g.readyAt) < readyEvery {
		return g.readyErr
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := wc.CheckWritable(cctx)
	if err != nil {
		s.logger().Error("not ready: the store does not accept writes", "err", err)
		err = &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "not ready: the store does not accept writes", Cause: err, RetryAfter: readyEvery}
	}
	g.readyAt, g.readyErr = time.Now(), err
	return err
}

// handleEvents lists the significant-event log (GLI-19), the newest
// first; ?table=ID keeps one table's, ?since=RFC3339 the later ones,
// ?limit=N (1 to 10000, default 200) that many, ?class=C those of one
// class (recall.EventClasses: money, staff, exclusions, advantage, table,
// system).
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	q := recall.EventQuery{Limit: 200}
	v := r.URL.Query()
	if t := v.Get("table"); t != "" {
		id, err := strconv.ParseInt(t, 10, 64)
		if err != nil || id < 1 {
			s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "table=%q is not a table ID", t))
			return
		}
		q.Table = id
	}
	if since := v.Get("since"); since != "" {
		at, err := time.Parse(time.RFC3339, since)
		if err != nil {
			s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "since=%q is not an RFC 3339 time, e.g. 2026-11-22T10:00:00Z", since))
			return
		}
		q.Since = at
	}
	q.Class = v.Get("class") // recall refuses one not of EventClasses
	if l := v.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 10000 {
			s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "limit=%q: give 1 to 10000", l))
			return
		}
		q.Limit = n
	}
	out, err := recall.Events(r.Context(), s.Store, q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// ---- tables ----

// liveTables gives the web API each table's configuration in force: the
// one it was created with, changed since by configuration changes.
type liveTables struct{ s *Server }

func (l liveTables) TableByID(ctx context.Context, id int64) (*sabot.Table, error) {
	a, err := l.s.table(id)
	if err != nil {
		return l.s.Store.TableByID(ctx, id) // the significant-event log, a table not served
	}
	v, err := a.View(ctx)
	if err != nil {
		return nil, err
	}
	return &sabot.Table{ID: v.ID, Name: v.Name, Profile: v.Profile, Options: v.Options, TestMode: v.TestMode}, nil
}

func (s *Server) handleCreateTable(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req wire.TableRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.CreateTable(r.Context(), &sabot.Table{Name: req.Name, Profile: req.Profile, Options: req.Options, TestMode: req.TestMode})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

func (s *Server) handleTables(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.lobby(r.Context(), r))
}

// localViews is the view of every table this node serves.
func (s *Server) localViews(ctx context.Context) []*wire.TableView {
	out := []*wire.TableView{}
	for _, a := range s.tableList() {
		if v, err := a.LobbyView(ctx); err == nil { // cached while the table does nothing
			out = append(out, v)
		}
	}
	return out
}

func (s *Server) tableOf(r *http.Request) (*actor.Table, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "%q is not a table ID", r.PathValue("id"))
	}
	a, err := s.table(id)
	if err != nil && s.Shared && sabot.ErrorCode(err) == sabot.ENOTFOUND {
		// On a cluster a table this node does not serve, though the
		// request reached it as its owner, has just moved: dropped by this
		// node (fenced, handed over) before the others' scan claims it. A
		// 404 would be final to the client; it tries again, elsewhere.
		if _, terr := s.Store.TableByID(r.Context(), id); terr == nil {
			return nil, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
				Message: fmt.Sprintf("table %d moved: this node no longer serves it; try again", id)}
		}
	}
	return a, err
}

func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	if v, ok := s.tableViewOf(w, r); ok {
		writeJSON(w, http.StatusOK, v)
	}
}

// tableViewOf is the view of the request's table, or false with the
// refusal written (no such table, or it cannot be read now).
func (s *Server) tableViewOf(w http.ResponseWriter, r *http.Request) (*wire.TableView, bool) {
	a, err := s.tableOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return nil, false
	}
	v, err := a.View(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return nil, false
	}
	return v, true
}

// commandRoute is a table command's route.
func commandRoute(c *actor.Op) string { return "POST /api/tables/{id}/" + c.Name() }

func (s *Server) handleCommand(cmd *actor.Op) func(http.ResponseWriter, *http.Request, *sabot.User) {
	return func(w http.ResponseWriter, r *http.Request, u *sabot.User) {
		// The table first: a command at a table that is not there is "no
		// table" (not found), whoever sends it; a staff command refused
		// to a player cites the rule of that table's regulation.
		a, err := s.tableOf(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if !cmd.ForPlayers() { // a player's is checked with its body (walk_in)
			if err := cmd.Allows(u, a); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		// A user's commands have a rate over HTTP as on the socket;
		// the pit's are not counted.
		if !u.Admin {
			if d := s.guards().commands.take(strconv.FormatInt(u.ID, 10), s.now()); d > 0 {
				s.writeError(w, r, sabot.Throttled(d, "too many commands: try again in %s", roundUp(d)))
				return
			}
		}
		env, body, err := decodeCommand(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		c, err := s.host.Command(u, cmd, env, body)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		session, _ := bearer(r.Header.Get("Authorization")) // authed found its session
		c.SetSession(session)
		s.run(w, r, a, c)
	}
}

// run applies a command at its table and answers with its result.
func (s *Server) run(w http.ResponseWriter, r *http.Request, a *actor.Table, c *actor.Command) {
	rep := a.Do(r.Context(), c)
	if rep.Err != nil {
		s.writeError(w, r, rep.Err)
		return
	}
	writeJSON(w, http.StatusOK, wire.CommandResult{OK: true, Seq: rep.Seq, Duplicate: rep.Dup})
}

// handleRound recalls a round (GLI-19 §4.14): an administrator sees every
// round; a player only the rounds he bet in, and of the wallets only his own.
func (s *Server) handleRound(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	rec, err := recall.Recall(r.Context(), s.Store, r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !u.Admin {
		played := false
		for _, b := range rec.Bets {
			played = played || b.Player == u.Name
		}
		if !played {
			s.writeError(w, r, sabot.Errorf(sabot.ENOTFOUND, "no round %s of yours", r.PathValue("id")))
			return
		}
		rec.WalletsAtDeal = onlyMine(rec.WalletsAtDeal, u.Name)
		rec.WalletsAfter = onlyMine(rec.WalletsAfter, u.Name)
		// A card taken back stays hidden until its shoe is over (AR-23
		// (d), as a burn).
		if err := recall.ForPlayer(r.Context(), s.Store, rec); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, rec)
}

// handleMyRounds lists a page of the player's rounds, the newest first:
// ?limit= (1 to MaxRoundsPage, DefaultRoundsPage) of those closed before
// ?before=ROUND (the last of the previous page).
func (s *Server) handleMyRounds(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	limit, err := pageLimit(r, recall.DefaultRoundsPage, recall.MaxRoundsPage)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rounds, err := recall.PlayerRounds(r.Context(), s.Store, u, r.URL.Query().Get("before"), limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rounds)
}

// handleTableHistory serves GET /api/tables/{id}/history?limit=: the
// logged-in player's last rounds at the table (TableHistory), for the
// history panel of the table's page.
func (s *Server) handleTableHistory(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	limit, err := pageLimit(r, recall.DefaultHistoryPage, recall.MaxHistoryPage)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.tableOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rounds, err := recall.TableHistory(r.Context(), s.Store, u, a.ID(), limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, rounds)
}

// pageLimit reads ?limit=, 1 to most (def when absent).
func pageLimit(r *http.Request, def, most int) (int, error) {
	l := r.URL.Query().Get("limit")
	if l == "" {
		return def, nil
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 1 || n > most {
		return 0, sabot.Errorf(sabot.EINVALID, "limit=%q: give 1 to %d", l, most)
	}
	return n, nil
}

func onlyMine(wallets map[string]money.Amount, name string) map[string]money.Amount {
	mine := map[string]money.Amount{}
	if v, ok := wallets[name]; ok {
		mine[name] = v
	}
	return mine
}

// handleShoe serves a page of a shoe (ShoeInfo): ?limit= rounds (1 to
// MaxShoePage, DefaultShoePage) after ?after=ROUND. It needs no login, so
// it is bounded: its cost follows the page, and the server answers at most
// ShoeReads of them a second (429 with Retry-After beyond).
func (s *Server) handleShoe(w http.ResponseWriter, r *http.Request) {
	if wait, ok := s.shoeReads.allow(time.Now()); !ok { // real load, on the real clock
		s.writeError(w, r, sabot.Throttled(wait, "too many shoe reads: at most %g a second are served", s.shoeReads.perSecond))
		return
	}
	limit, err := pageLimit(r, recall.DefaultShoePage, recall.MaxShoePage)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	after := 0
	if a := r.URL.Query().Get("after"); a != "" {
		if _, after, err = recall.ParseRoundID(a); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	v, err := recall.ShoeInfo(r.Context(), s.Store, r.PathValue("id"), after, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
