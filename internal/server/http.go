package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"sabot"
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
	mux.Handle("GET /metrics", s.metrics.handler())

	mux.HandleFunc("GET /api/site", s.handleSite)
	mux.HandleFunc("POST /api/register", s.handleRegister)
	mux.HandleFunc("POST /api/login", s.handleLogin)
	mux.HandleFunc("POST /api/launch", s.handleLaunch) // a player from the operator's site (issue 14)
	mux.HandleFunc("GET /launch", s.handleLaunchPage)
	mux.HandleFunc("POST /api/logout", s.authed(s.handleLogout))
	mux.HandleFunc("GET /api/me", s.authed(s.handleMe))
	mux.HandleFunc("POST /api/admin/credit", s.admin(s.handleCredit))
	mux.HandleFunc("GET /api/admin/events", s.admin(s.handleEvents))
	mux.HandleFunc("GET /api/admin/wallet/owed", s.admin(s.handleOwed))
	mux.HandleFunc("GET /api/admin/reports/tables", s.admin(s.handleReportTables)) // issue 29: reports.go
	mux.HandleFunc("GET /api/admin/reports/players", s.admin(s.handleReportPlayers))
	mux.HandleFunc("GET /api/admin/reports/advantage", s.admin(s.handleReportAdvantage))
	mux.HandleFunc("POST /api/admin/wallet/owed/{id}/resolve", s.admin(s.handleResolveOwed))

	mux.HandleFunc("POST /api/tables", s.admin(s.handleCreateTable))
	mux.HandleFunc("POST /api/admin/staff", s.admin(s.handleCreateStaff))
	mux.HandleFunc("GET /api/admin/players", s.admin(s.playerCare().HandlePlayers))
	mux.HandleFunc("POST /api/admin/players/{name}/block", s.admin(s.playerCare().HandleBlock))
	mux.HandleFunc("POST /api/admin/players/{name}/unblock", s.admin(s.playerCare().HandleUnblock))
	mux.HandleFunc("POST /api/admin/devices", s.admin(s.handleIssueDevice))
	mux.HandleFunc("GET /api/admin/devices", s.admin(s.handleDevices))
	mux.HandleFunc("POST /api/admin/devices/{id}/revoke", s.admin(s.handleRevokeDevice))
	mux.HandleFunc("POST /api/tables/{id}/cards", s.handleDeviceCard) // a card reader: authenticated by its device token
	mux.HandleFunc("GET /api/tables", s.handleTables)
	mux.HandleFunc("GET /api/tables/{id}", s.handleTable)
	mux.HandleFunc("GET /api/tables/{id}/walk-ins", s.authed(s.handleWalkIns)) // a live table's walk-ins and their chips, for its staff
	mux.HandleFunc("GET /api/tables/{id}/ws", s.handleWS)                      // authenticates: its socket belongs to the session
	// The table commands, each at POST /api/tables/{id}/NAME; an
	// administrator's refused to anyone else (403).
	for _, c := range tableCommands {
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
	mux.HandleFunc("POST /api/replay", s.handleReplay)
	mux.HandleFunc("GET /api/shoes/{id}", s.handleShoe)

	// The web client (issue 6) and the API it reads besides: the house
	// edge, the strategy card, the rules in plain words.
	(&webapi.API{Tables: liveTables{s}, ClientKey: func(r *http.Request) string { return clientKey(s.clientAddr(r)) }}).Register(mux)
	mux.Handle("/", web.Handler())
	return s.cluster.Forward(s.requireJSON(mux))
}

// ErrorBody is every error's JSON body: a code and a one-line reason.
type ErrorBody = httpjson.ErrorBody

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
// connections, instead of taking the cores from the tables (issue 11).
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

// handleReady is the readiness check: the store accepts writes (issue 11,
// finding 11: on a read-only database /healthz said ok while every login
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

// ---- users and sessions ----

// MinPassword is the shortest password accepted, in characters.
const MinPassword = 8

// checkPassword refuses a password bcrypt cannot keep whole (over 72
// bytes), a short one, and one of nothing but spaces.
func checkPassword(password string) error {
	switch {
	case len(password) > MaxPassword:
		return sabot.Errorf(sabot.EINVALID, "a password has at most %d bytes (bcrypt reads no more); this one has %d", MaxPassword, len(password))
	case utf8.RuneCountInString(password) < MinPassword:
		return sabot.Errorf(sabot.EINVALID, "a password has at least %d characters", MinPassword)
	case strings.TrimFunc(password, unicode.IsSpace) == "":
		return sabot.Errorf(sabot.EINVALID, "a password needs more than spaces")
	}
	return nil
}

func (s *Server) bcryptCost() int {
	if s.BcryptCost != 0 {
		return s.BcryptCost
	}
	return bcrypt.DefaultCost
}

// CreateUser registers a user (an administrator if admin).
func (s *Server) CreateUser(ctx context.Context, name, password string, admin bool) (*sabot.User, error) {
	return s.createUser(ctx, name, password, admin, "")
}

// createUser is CreateUser with a role: a member of the staff.
func (s *Server) createUser(ctx context.Context, name, password string, admin bool, role string) (*sabot.User, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	if err := checkPassword(password); err != nil {
		return nil, err
	}
	var hash []byte
	if herr := s.guards().hash.do(ctx, func() {
		hash, err = bcrypt.GenerateFromPassword([]byte(password), s.bcryptCost())
		s.metrics.hashes.WithLabelValues("generate").Inc()
	}); herr != nil {
		return nil, herr
	}
	if err != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "password refused: %v", err)
	}
	u := &sabot.User{Name: name, PasswordHash: hash, Admin: admin, Role: role}
	if err := s.Store.CreateUser(ctx, u); err != nil {
		if sabot.ErrorCode(err) == sabot.ECONFLICT {
			// Worded by the page in its language (issue 28).
			return nil, sabot.Errorf(sabot.ECONFLICT, "%s", sabot.ErrorMessage(err)).WithReason("name_taken", map[string]any{"name": name})
		}
		return nil, err
	}
	return u, nil
}

// EnsureAdmin creates the administrator name with password unless a user
// of that name exists (`sabot serve --admin NAME`).
func (s *Server) EnsureAdmin(ctx context.Context, name, password string) error {
	if u, err := s.Store.UserByName(ctx, name); err == nil {
		if !u.Admin {
			return sabot.Errorf(sabot.ECONFLICT, "user %s exists and is not an administrator", name)
		}
		return nil
	} else if sabot.ErrorCode(err) != sabot.ENOTFOUND {
		return err
	}
	u, err := s.CreateUser(ctx, name, password, true)
	if err != nil {
		return err
	}
	s.event(ctx, u, adminPayload{Event: "admin-created", User: name}, nil, "")
	return nil
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	// Each registration is a welcome credit and a password hash: so many
	// from one address (issue 11, finding 6), unless an administrator
	// registers them (sabot bots, an operator's batch).
	byAdmin := s.byAdmin(r)
	if !byAdmin {
		if d := s.guards().register.take(clientKey(s.clientAddr(r)), s.now()); d > 0 {
			s.writeError(w, r, sabot.Throttled(d, "too many registrations from your address: try again in %s", roundUp(d)))
			return
		}
	}
	var c wire.Credentials
	if err := decode(r, &c); err != nil {
		s.writeError(w, r, err)
		return
	}
	u, err := s.CreateUser(r.Context(), c.Name, c.Password, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// From where an excluded player was seen: the pit is told, and no
	// welcome credit (issue 25). An administrator's registrations are his.
	seen := !byAdmin && s.sighted(r.Context(), w, r, u, "registered")
	if s.WelcomeCredit > 0 && !seen {
		house := &sabot.User{Name: "the house"}
		req := wire.CreditRequest{CommandID: "welcome-" + u.Name, User: u.Name, Amount: money.Amount(s.WelcomeCredit), Memo: "welcome credit"}
		if _, _, err := s.Credit(r.Context(), house, req); err != nil {
			s.logger().Error("welcome credit not written", "user", u.Name, "err", err)
		}
	}
	writeJSON(w, http.StatusCreated, s.userView(r.Context(), u)) // the wallet with its welcome credit
}

// byAdmin says whether a request carries an administrator's session (a
// request without one, or with a bad one, is anybody's).
func (s *Server) byAdmin(r *http.Request) bool {
	if r.Header.Get("Authorization") == "" {
		return false
	}
	u, _, err := s.authenticate(r, false)
	return err == nil && u.Admin
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var c wire.Credentials
	if err := decode(r, &c); err != nil {
		s.writeError(w, r, err)
		return
	}
	name, err := checkName(c.Name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(c.Password) > MaxPassword {
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "a password has at most %d bytes", MaxPassword))
		return
	}
	bad := sabot.Errorf(sabot.EUNAUTHORIZED, "unknown name or wrong password")
	var u *sabot.User
	match, err := s.guess(r.Context(), name, s.clientAddr(r), c.Password, "too many failed logins", func() ([]byte, error) {
		var err error
		u, err = s.Store.UserByName(r.Context(), name)
		if err != nil && sabot.ErrorCode(err) != sabot.ENOTFOUND {
			return nil, err
		}
		// An unknown name is checked against a hash too, so that it takes
		// the time of a known one: names are not told by timing.
		if u != nil && u.Role != sabot.RoleGuest { // a walk-in never logs in (he has no password)
			return u.PasswordHash, nil
		}
		return s.dummyHash(), nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if u == nil || u.Role == sabot.RoleGuest || !match {
		s.writeError(w, r, bad)
		return
	}
	// Where an excluded player was seen (issue 25).
	s.sighted(r.Context(), w, r, u, "logged in")
	if err := s.excluded(r.Context(), u.ID); err != nil { // issue 15: a time-out, a self-exclusion
		s.writeError(w, r, err)
		return
	}
	token := randomID(32)
	now := s.now()
	if err := s.Store.CreateSession(r.Context(), &sabot.Session{Token: token, UserID: u.ID, Created: now, LastSeen: now}); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.LoginResult{Token: token, User: s.userView(r.Context(), u)})
}

func (s *Server) userView(ctx context.Context, u *sabot.User) wire.UserView {
	if u.OperatorID != "" && s.Wallet != nil { // his money is the operator's (issue 14)
		return wire.UserView{ID: u.ID, Name: u.Name, Wallet: s.operatorBalance(ctx, u), Operator: true}
	}
	return wire.UserView{ID: u.ID, Name: u.Name, Admin: u.Admin, Role: u.Role, Wallet: s.balance(ctx, sabot.AccountWallet, u.ID)}
}

// guess checks a password against a hash under the guessing throttles
// (a login's, a password change's): throttled per name and address, per
// address, and per name from addresses it has not logged in from (so that a
// stranger's guessing does not lock the owner out); only failures count
// (issue 11, finding 6), and a success makes the address known for the name.
// The hash is read (hashOf) only once the throttles let the guess through.
func (s *Server) guess(ctx context.Context, name, clientAddr, password, throttled string, hashOf func() ([]byte, error)) (bool, error) {
	g, now := s.guards(), s.now()
	folded, addr := sabot.FoldName(name), clientKey(clientAddr)
	pair, known := folded+"\n"+addr, g.known.has(folded, addr) // a name has no control character
	d := max(g.loginName.waitShared(ctx, pair, now), g.loginAddr.waitShared(ctx, addr, now))
	if !known {
		d = max(d, g.loginNameAll.waitShared(ctx, folded, now))
	}
	if d > 0 {
		return false, sabot.Throttled(d, "%s: try again in %s", throttled, roundUp(d))
	}
	hash, err := hashOf()
	if err != nil {
		return false, err
	}
	var match bool
	if err := g.hash.do(ctx, func() {
		match = bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil
		s.metrics.hashes.WithLabelValues("compare").Inc()
	}); err != nil {
		return false, err
	}
	if !match {
		cctx := context.WithoutCancel(ctx) // counted even if the guesser hangs up
		g.loginName.chargeShared(cctx, pair, now)
		g.loginAddr.chargeShared(cctx, addr, now)
		if !known {
			g.loginNameAll.chargeShared(cctx, folded, now)
		}
		return false, nil
	}
	g.known.add(folded, addr)
	return true, nil
}

// dummyHash is a bcrypt hash of the server's cost that no password
// matches: an unknown name's login is checked against it.
func (s *Server) dummyHash() []byte {
	g := s.guards()
	g.dummyOnce.Do(func() {
		h, err := bcrypt.GenerateFromPassword([]byte(randomID(16)), s.bcryptCost())
		if err != nil {
			h, _ = bcrypt.GenerateFromPassword([]byte(randomID(16)), bcrypt.DefaultCost)
		}
		g.dummy = h
	})
	return g.dummy
}

// roundUp is a wait as a client reads it: whole seconds, at least one.
func roundUp(d time.Duration) time.Duration {
	return max(time.Second, (d + time.Second - 1).Truncate(time.Second))
}

type ctxKey int

const userKey ctxKey = 1

// authenticate finds the session of a request's bearer token (the
// scheme's case does not matter), or, where query is set (the WebSocket:
// a browser cannot give it headers), of its token parameter. A session
// idle longer than Timing.SessionIdle is over: the player logs in again.
func (s *Server) authenticate(r *http.Request, query bool) (*sabot.User, string, error) {
	token, err := bearer(r.Header.Get("Authorization"))
	if err != nil {
		return nil, "", sabot.Errorf(sabot.EUNAUTHORIZED, "log in first: the Authorization header is not \"Bearer TOKEN\"")
	}
	if token == "" && query {
		token = r.URL.Query().Get("token")
	}
	if token == "" {
		return nil, "", sabot.Errorf(sabot.EUNAUTHORIZED, "log in first: no bearer token")
	}
	h := token // the store keeps only its hash
	sess, err := s.Store.SessionByToken(r.Context(), h)
	if err != nil {
		if sabot.ErrorCode(err) == sabot.ENOTFOUND {
			err = sabot.Errorf(sabot.EUNAUTHORIZED, "log in again: the session is unknown or over")
		}
		return nil, "", err
	}
	now := s.now()
	sess.LastSeen = s.seen(h, sess.LastSeen) // a touch of this node's not yet written (touch.go)
	if now.Sub(sess.LastSeen) > s.timing().SessionIdle {
		s.Store.DeleteSession(r.Context(), h)
		s.revokeSession(h)
		s.revoke(r.Context(), sabot.Revocation{UserID: sess.UserID}, nil) // on every node (issue 25)
		return nil, "", sabot.Errorf(sabot.EUNAUTHORIZED, "log in again: the session was idle too long")
	}
	if now.Sub(sess.LastSeen) > time.Minute/4 {
		s.touch(r.Context(), h, now)
	}
	u, err := s.Store.UserByID(r.Context(), sess.UserID)
	if err != nil {
		return nil, "", err
	}
	return u, h, nil
}

func (s *Server) authed(h func(http.ResponseWriter, *http.Request, *sabot.User)) http.HandlerFunc {
	return s.authedBy(false, h)
}

func (s *Server) authedBy(query bool, h func(http.ResponseWriter, *http.Request, *sabot.User)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, _, err := s.authenticate(r, query)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		h(w, r, u)
	}
}

func (s *Server) admin(h func(http.ResponseWriter, *http.Request, *sabot.User)) http.HandlerFunc {
	return s.authed(func(w http.ResponseWriter, r *http.Request, u *sabot.User) {
		if !u.Admin {
			s.writeError(w, r, sabot.Errorf(sabot.EFORBIDDEN, "administrators only"))
			return
		}
		h(w, r, u)
	})
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	_, h, _ := s.authenticate(r, false)
	s.revokeSession(h) // its sockets close and run no more commands
	if err := s.Store.DeleteSession(r.Context(), h); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.revoke(r.Context(), sabot.Revocation{UserID: u.ID}, nil) // on every node (issue 25)
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	writeJSON(w, http.StatusOK, s.userView(r.Context(), u))
}

// Credit moves play money from the house to a user's wallet, as a
// significant event; a repeated command ID credits once.
func (s *Server) Credit(ctx context.Context, admin *sabot.User, req wire.CreditRequest) (*sabot.LogRecord, bool, error) {
	if req.CommandID == "" {
		return nil, false, sabot.Errorf(sabot.EINVALID, "every command needs a command_id")
	}
	if err := s.checkID("command_id", req.CommandID); err != nil {
		return nil, false, err
	}
	amount := money.Amount(req.Amount)
	if amount <= 0 {
		return nil, false, sabot.Errorf(sabot.EINVALID, "a credit is a positive amount in minor units")
	}
	if !amount.Valid() {
		return nil, false, sabot.Errorf(sabot.EINVALID, "refused: a credit is at most %d minor units (the most an amount may be)", money.Max)
	}
	u, err := s.Store.UserByName(ctx, req.User)
	if err == nil && u.OperatorID != "" {
		return nil, false, sabot.Errorf(sabot.EINVALID, "refused: %s plays on the operator's wallet, which holds his money: credit him there", u.Name)
	}
	if err != nil {
		return nil, false, err
	}
	held := s.balance(ctx, sabot.AccountWallet, u.ID)
	if _, ok := held.Add(amount); !ok {
		// The store refuses it too (a race): this says it in money.
		return nil, false, sabot.Errorf(sabot.EINVALID, "refused: %s's wallet holds %s; a credit of %s would take it beyond the most a wallet may hold (%s)",
			u.Name, held, amount, money.Max)
	}
	if err := s.playerCare().Deposit(ctx, u.ID, amount); err != nil { // the player's own deposit limit (issue 15)
		return nil, false, err
	}
	wid, err := s.account(ctx, sabot.AccountWallet, u.ID)
	if err != nil {
		return nil, false, err
	}
	hid, err := s.account(ctx, sabot.AccountHouse, 0)
	if err != nil {
		return nil, false, err
	}
	memo := "credit by " + admin.Name
	ps := []sabot.Posting{{AccountID: wid, Amount: amount, Memo: memo}, {AccountID: hid, Amount: -amount, Memo: memo}}
	return s.eventGuarded(ctx, admin, adminPayload{Event: "credit", User: u.Name, Amount: amount, Memo: req.Memo}, ps, req.CommandID, s.depositGuard(u.ID, amount))
}

func (s *Server) handleCredit(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req wire.CreditRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, dup, err := s.Credit(r.Context(), u, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.CommandResult{OK: true, Seq: rec.Seq, Duplicate: dup})
}

// handleEvents lists the significant-event log (GLI-19), the newest
// first; ?table=ID keeps one table's, ?since=RFC3339 the later ones,
// ?limit=N (1 to 10000, default 200) that many.
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
	rep := a.do(ctx, &command{inside: viewTable})
	if rep.err != nil {
		return nil, rep.err
	}
	v := rep.view
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
		if rep := a.do(ctx, &command{inside: viewTable}); rep.err == nil {
			out = append(out, rep.view)
		}
	}
	return out
}

func (s *Server) tableOf(r *http.Request) (*actor, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "%q is not a table ID", r.PathValue("id"))
	}
	return s.table(id)
}

func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	a, err := s.tableOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rep := a.do(r.Context(), &command{inside: viewTable})
	if rep.err != nil {
		s.writeError(w, r, rep.err)
		return
	}
	writeJSON(w, http.StatusOK, rep.view)
}

// commandRoute is a table command's route.
func commandRoute(c *tableCommand) string { return "POST /api/tables/{id}/" + c.name }

func (s *Server) handleCommand(cmd *tableCommand) func(http.ResponseWriter, *http.Request, *sabot.User) {
	return func(w http.ResponseWriter, r *http.Request, u *sabot.User) {
		if cmd.who != byPlayer { // a player's is checked with its body (walk_in)
			if err := cmd.who.allows(u); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		a, err := s.tableOf(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var req wire.CommandRequest
		if err := decode(r, &req); err != nil {
			s.writeError(w, r, err)
			return
		}
		c, err := s.command(u, cmd, req)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		c.session, _ = bearer(r.Header.Get("Authorization")) // authed found its session
		s.run(w, r, a, c)
	}
}

// run applies a command at its table and answers with its result.
func (s *Server) run(w http.ResponseWriter, r *http.Request, a *actor, c *command) {
	rep := a.do(r.Context(), c)
	if rep.err != nil {
		s.writeError(w, r, rep.err)
		return
	}
	writeJSON(w, http.StatusOK, wire.CommandResult{OK: true, Seq: rep.seq, Duplicate: rep.dup})
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
	rounds, err := recall.TableHistory(r.Context(), s.Store, u, a.created.ID, limit)
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
