package server

import (
	"net/http"
	"sabot/internal/tablelog"
	"sabot/internal/wire"

	"golang.org/x/crypto/bcrypt"

	"sabot"
)

// A player's password change: the current password
// asked again (its failures throttled as a login's: a session taken over
// cannot guess it), every session of his ended on every node — his sockets
// elsewhere closed — and a new session given to the page that changed it.

// PasswordRequest changes the logged-in user's password (POST
// /api/me/password).
type PasswordRequest struct {
	Password    string `json:"password"`
	NewPassword string `json:"new_password"`
}

func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req PasswordRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.changePassword(r, u, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) changePassword(r *http.Request, u *sabot.User, req PasswordRequest) (*wire.LoginResult, error) {
	ctx := withHashAddr(r.Context(), clientKey(s.clientAddr(r)))
	c := s.care()
	switch {
	case u.OperatorID != "" || u.Role == sabot.RoleGuest:
		return nil, sabot.Errorf(sabot.EFORBIDDEN, "this account has no password here: its operator's site logs it in")
	case c == nil:
		return nil, sabot.Errorf(sabot.EINVALID, "this store cannot end sessions: no password change")
	case len(req.Password) > MaxPassword:
		return nil, sabot.Errorf(sabot.EINVALID, "a password has at most %d bytes", MaxPassword).WithReason("password_long", map[string]any{"most": MaxPassword})
	}
	if err := checkPassword(req.NewPassword); err != nil {
		return nil, err
	}
	match, err := s.guess(ctx, u.Name, s.clientAddr(r), req.Password, "too many wrong passwords", func() ([]byte, error) { return u.PasswordHash, nil })
	if err != nil {
		return nil, err
	}
	if !match {
		// 403, not 401: the session stands (a page logs out on a 401).
		return nil, sabot.Errorf(sabot.EFORBIDDEN, "the current password is wrong: nothing changed").WithReason("wrong_password", nil)
	}
	var hash []byte
	var herr error
	if err := s.guards().hash.do(ctx, func() {
		hash, herr = bcrypt.GenerateFromPassword([]byte(req.NewPassword), s.bcryptCost())
		s.metrics.hashes.WithLabelValues("generate").Inc()
	}); err != nil {
		return nil, err
	}
	if herr != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "password refused: %v", herr)
	}
	// The hash and the credentials' version change, and every session of
	// his ends, in one transaction: a login that matched the old hash
	// before it makes no session after it.
	version, err := s.Store.SetPassword(ctx, u.ID, hash)
	if err != nil {
		return nil, err
	}
	token := randomID(32)
	now := s.now()
	if err := s.Store.CreateSession(ctx, &sabot.Session{Token: token, UserID: u.ID, Created: now, LastSeen: now, Credentials: version}); err != nil {
		return nil, err
	}
	s.event(ctx, u, tablelog.PasswordChanged{User: u.Name, Text: u.Name + " changed his password: his other sessions ended"}, nil, "")
	// His sockets of the sessions ended close, on every node; he stays at
	// his tables (this session lives on).
	s.revoke(ctx, sabot.Revocation{UserID: u.ID}, nil)
	u.PasswordHash, u.Credentials = hash, version
	return &wire.LoginResult{Token: token, User: s.userView(ctx, u)}, nil
}
