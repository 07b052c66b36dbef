package server

import (
	"context"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// Users and sessions over HTTP: registration, login (the throttles and
// the bcrypt check, guess), authentication of a request, logout, the
// player's own view, and the pit's credits to a wallet.

// MinPassword is the shortest password accepted, in characters.
const MinPassword = 8

// checkPassword refuses a password bcrypt cannot keep whole (over 72
// bytes), a short one, and one of nothing but spaces.
func checkPassword(password string) error {
	switch {
	case len(password) > MaxPassword:
		return sabot.Errorf(sabot.EINVALID, "a password has at most %d bytes (bcrypt reads no more); this one has %d", MaxPassword, len(password)).WithReason("password_long", map[string]any{"most": MaxPassword})
	case utf8.RuneCountInString(password) < MinPassword:
		return sabot.Errorf(sabot.EINVALID, "a password has at least %d characters", MinPassword).WithReason("password_short", map[string]any{"least": MinPassword})
	case strings.TrimFunc(password, unicode.IsSpace) == "":
		return sabot.Errorf(sabot.EINVALID, "a password needs more than spaces").WithReason("password_spaces", nil)
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
			// Worded by the page in its language.
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
	s.event(ctx, u, tablelog.AdminCreated{User: name}, nil, "")
	return nil
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	// Each registration is a welcome credit and a password hash: so many
	// from one address, unless an administrator
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
	hctx := r.Context()
	if !byAdmin {
		hctx = withHashAddr(hctx, clientKey(s.clientAddr(r)))
	}
	u, err := s.CreateUser(hctx, c.Name, c.Password, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// From where an excluded player was seen: the pit is told, and no
	// welcome credit. An administrator's registrations are his.
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
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "a password has at most %d bytes", MaxPassword).WithReason("password_long", map[string]any{"most": MaxPassword}))
		return
	}
	bad := sabot.Errorf(sabot.EUNAUTHORIZED, "unknown name or wrong password").WithReason("login_failed", nil)
	// Successful logins have a budget too, per account and per address,
	// taken before the hash and given back if the password is wrong (a
	// stranger's failures do not spend the owner's).
	g, now0, addr := s.guards(), s.now(), clientKey(s.clientAddr(r))
	undoName, d := g.loginOKName.reserve(sabot.FoldName(name), now0)
	if d > 0 {
		s.writeError(w, r, sabot.Throttled(d, "too many logins of this account: try again in %s", roundUp(d)))
		return
	}
	undoAddr, d := g.loginOKAddr.reserve(addr, now0)
	if d > 0 {
		undoName()
		s.writeError(w, r, sabot.Throttled(d, "too many logins from your address: try again in %s", roundUp(d)))
		return
	}
	ctx := withHashAddr(r.Context(), addr) // its share of the hashing
	var u *sabot.User
	match, err := s.guess(ctx, name, s.clientAddr(r), c.Password, "too many failed logins", func() ([]byte, error) {
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
	if err != nil || u == nil || u.Role == sabot.RoleGuest || !match {
		undoName()
		undoAddr()
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if u == nil || u.Role == sabot.RoleGuest || !match {
		s.writeError(w, r, bad)
		return
	}
	// Where an excluded player was seen.
	s.sighted(r.Context(), w, r, u, "logged in")
	if err := s.excluded(r.Context(), u.ID); err != nil { // a time-out, a self-exclusion
		s.writeError(w, r, err)
		return
	}
	token := randomID(32)
	now := s.now()
	// Against the credentials the password matched: none if they changed
	// since the hash was read (a password change under way).
	if err := s.Store.CreateSession(r.Context(), &sabot.Session{Token: token, UserID: u.ID, Created: now, LastSeen: now, Credentials: u.Credentials}); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.LoginResult{Token: token, User: s.userView(r.Context(), u)})
}

func (s *Server) userView(ctx context.Context, u *sabot.User) wire.UserView {
	if u.OperatorID != "" && s.Wallet != nil { // his money is the operator's
		return wire.UserView{ID: u.ID, Name: u.Name, Wallet: s.operatorBalance(ctx, u), Operator: true}
	}
	return wire.UserView{ID: u.ID, Name: u.Name, Admin: u.Admin, Role: u.Role, Wallet: s.balance(ctx, sabot.AccountWallet, u.ID)}
}

// guess checks a password against a hash under the guessing throttles
// (a login's, a password change's): throttled per name and address, per
// address, and per name from addresses it has not logged in from (so that a
// stranger's guessing does not lock the owner out); only failures count,
// and a success makes the address known for the name.
// The hash is read (hashOf) only once the throttles let the guess through.
func (s *Server) guess(ctx context.Context, name, clientAddr, password, throttled string, hashOf func() ([]byte, error)) (bool, error) {
	g, now := s.guards(), s.now()
	folded, addr := sabot.FoldName(name), clientKey(clientAddr)
	pair, known := folded+"\n"+addr, g.known.has(folded, addr) // a name has no control character
	if !known && g.known.sharedHas(ctx, pair) {
		known = true // another node saw the owner log in from there
		g.known.add(folded, addr)
	}
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
	g.known.sharedAdd(context.WithoutCancel(ctx), pair) // a write a login, beside its bcrypt
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
		return nil, "", sabot.Errorf(sabot.EUNAUTHORIZED, "log in first: the Authorization header is not \"Bearer TOKEN\"").WithReason("login_first", nil)
	}
	if token == "" && query {
		token = r.URL.Query().Get("token")
	}
	if token == "" {
		return nil, "", sabot.Errorf(sabot.EUNAUTHORIZED, "log in first: no bearer token").WithReason("login_first", nil)
	}
	h := token // the store keeps only its hash
	sess, err := s.Store.SessionByToken(r.Context(), h)
	if err != nil {
		if sabot.ErrorCode(err) == sabot.ENOTFOUND {
			err = sabot.Errorf(sabot.EUNAUTHORIZED, "log in again: the session is unknown or over").WithReason("login_again", nil)
		}
		return nil, "", err
	}
	now := s.now()
	sess.LastSeen = s.seen(h, sess.LastSeen) // a touch of this node's not yet written (touch.go)
	if now.Sub(sess.LastSeen) > s.timing().SessionIdle {
		s.Store.DeleteSession(r.Context(), h)
		s.revokeSession(h)
		s.revoke(r.Context(), sabot.Revocation{UserID: sess.UserID}, nil) // on every node
		return nil, "", sabot.Errorf(sabot.EUNAUTHORIZED, "log in again: the session was idle too long").WithReason("login_idle", nil)
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
	s.revoke(r.Context(), sabot.Revocation{UserID: u.ID}, nil) // on every node
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
	if err := s.playerCare().Deposit(ctx, u.ID, amount); err != nil { // the player's own deposit limit
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
	return s.eventGuarded(ctx, admin, tablelog.Credit{User: u.Name, Amount: amount, Memo: req.Memo}, ps, req.CommandID, s.depositGuard(u.ID, amount))
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
