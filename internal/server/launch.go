package server

import (
	"context"
	"net/http"
	"net/url"
	"sabot/internal/wire"
	"strconv"
	"time"

	"sabot"
)

// The launch from the operator's site (docs/wallet.md): the
// operator opens a game session with a token it issues; sabot asks the
// operator's wallet who the token's player is (authenticate) and opens a
// session under him, with no registration and no password. GET /launch
// sends the browser on to the web table with the session; POST /api/launch
// answers a program as a login does.

// launch checks an operator's token with its wallet and opens a session
// for its player.
func (s *Server) launch(ctx context.Context, r *http.Request, token string) (*wire.LoginResult, error) {
	g, now := s.guards(), s.now()
	th := launchThrottle{g: g, addr: clientKey(s.clientAddr(r)), now: now}
	u, balance, err := s.operator().Launch(ctx, token, th)
	if err != nil {
		return nil, err
	}
	if err := s.excluded(ctx, u.ID); err != nil { // an exclusion on record holds here too
		return nil, err
	}
	s.operator().SetBalance(u.ID, balance)
	session := randomID(32)
	if err := s.Store.CreateSession(ctx, &sabot.Session{Token: session, UserID: u.ID, Created: now, LastSeen: now, Credentials: u.Credentials}); err != nil {
		return nil, err
	}
	return &wire.LoginResult{Token: session, User: s.userView(ctx, u)}, nil
}

// launchThrottle holds back a client guessing launch tokens per address,
// as failed logins are.
type launchThrottle struct {
	g    *guards
	addr string
	now  time.Time
}

func (t launchThrottle) Wait() error {
	if d := t.g.loginAddr.wait(t.addr, t.now); d > 0 {
		return sabot.Throttled(d, "too many failed launches: try again in %s", roundUp(d))
	}
	return nil
}

func (t launchThrottle) Charge() { t.g.loginAddr.charge(t.addr, t.now) }

// handleLaunch is POST /api/launch.
func (s *Server) handleLaunch(w http.ResponseWriter, r *http.Request) {
	var req wire.LaunchRequest
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
