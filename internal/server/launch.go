package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"sabot"
	"sabot/internal/wallet"
	"sabot/money"
)

// The launch from the operator's site (issue 14; docs/wallet.md): the
// operator opens a game session with a token it issues; sabot asks the
// operator's wallet who the token's player is (authenticate) and opens a
// session under him, with no registration and no password. GET /launch
// sends the browser on to the web table with the session; POST /api/launch
// answers a program as a login does.

// LaunchRequest is a launch by a program.
type LaunchRequest struct {
	Token string `json:"token"`
}

// maxLaunchToken bounds an operator's token.
const maxLaunchToken = 512

// launch checks an operator's token with its wallet and opens a session
// for its player.
func (s *Server) launch(ctx context.Context, r *http.Request, token string) (*LoginResult, error) {
	if s.Wallet == nil {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "this server has no operator's wallet: players log in (POST /api/login)")
	}
	if token == "" || len(token) > maxLaunchToken {
		return nil, sabot.Errorf(sabot.EINVALID, "a launch needs the operator's token (1 to %d bytes)", maxLaunchToken)
	}
	// Each launch is a call to the operator: a client guessing tokens is
	// throttled per address as failed logins are.
	g, now := s.guards(), s.now()
	addr := clientKey(s.clientAddr(r))
	if d := g.loginAddr.wait(addr, now); d > 0 {
		return nil, sabot.Throttled(d, "too many failed launches: try again in %s", roundUp(d))
	}
	// The transaction ID is the token's: a launch sent again (no answer in
	// time) is the same call, and acts once at the operator's.
	hash := launchTokenHash(token)
	res, err := s.callWithin(ctx, wallet.OpAuthenticate, wallet.Request{TransactionID: launchSession(hash), Token: token, Currency: s.Currency})
	if err != nil {
		s.logger().Warn("the operator's wallet did not answer a launch", "err", err)
		return nil, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second, Message: "the operator's wallet does not answer: try again"}
	}
	if res.Refused() {
		g.loginAddr.charge(addr, now)
		return nil, sabot.Errorf(sabot.EUNAUTHORIZED, "the operator refused the launch: %s", firstOf(res.Message, res.Reason))
	}
	if res.Currency != "" && res.Currency != s.Currency {
		return nil, sabot.Errorf(sabot.ECONFLICT, "refused: the player's account is in %s; these tables play in %s", res.Currency, s.Currency)
	}
	if err := checkOperatorID(res.Player); err != nil {
		s.logger().Error("the operator's wallet named a player sabot cannot seat", "player", res.Player, "err", err)
		return nil, sabot.Errorf(sabot.EINTERNAL, "the operator's wallet named a player this server cannot seat")
	}
	u, err := s.outbox().OperatorUser(ctx, res.Player, operatorPrefix+res.Player)
	if err != nil {
		return nil, err
	}
	if err := s.useLaunchToken(ctx, hash, u.ID); err != nil {
		g.loginAddr.charge(addr, now)
		return nil, err
	}
	if err := s.excluded(ctx, u.ID); err != nil { // an exclusion on record holds here too (issue 25)
		return nil, err
	}
	s.opBalance.Store(u.ID, money.Amount(res.Balance))
	session := randomID(32)
	if err := s.Store.CreateSession(ctx, &sabot.Session{Token: session, UserID: u.ID, Created: now, LastSeen: now}); err != nil {
		return nil, err
	}
	return &LoginResult{Token: session, User: s.userView(ctx, u)}, nil
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// handleLaunch is POST /api/launch.
func (s *Server) handleLaunch(w http.ResponseWriter, r *http.Request) {
	var req LaunchRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.launch(r.Context(), r, req.Token)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// handleLaunchPage is GET /launch?token=…[&table=N]: the browser goes on to
// the table (or the lobby) with the session in the URL's fragment, which
// the page keeps and takes out of the address bar; a fragment is never
// sent to a server, nor in a Referer.
func (s *Server) handleLaunchPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	next := "/"
	if t := q.Get("table"); t != "" {
		id, err := strconv.ParseInt(t, 10, 64)
		if err != nil || id < 1 {
			s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "table %q: a table's number", t))
			return
		}
		next = "/tables/" + strconv.FormatInt(id, 10)
	}
	res, err := s.launch(r.Context(), r, q.Get("token"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, next+"#session="+url.QueryEscape(res.Token), http.StatusSeeOther)
}

// operatorBalance is an operator's player's balance: asked of the
// operator's wallet (within a second), or else the last it said.
func (s *Server) operatorBalance(ctx context.Context, u *sabot.User) money.Amount {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	res, err := s.Wallet.Call(ctx, wallet.OpBalance, wallet.Request{TransactionID: "b-" + randomID(12), Player: u.OperatorID, Currency: s.Currency})
	if err == nil && !res.Refused() {
		s.opBalance.Store(u.ID, money.Amount(res.Balance))
		return money.Amount(res.Balance)
	}
	if b, ok := s.opBalance.Load(u.ID); ok {
		return b.(money.Amount)
	}
	return 0
}

// opBalances keeps the operator's players' balances as the operator last
// said them.
type opBalances = sync.Map
