package server

import (
	"context"
	"sabot/internal/actor"
	"sabot/internal/wire"

	"sabot"
)

// A session's end and a player's exclusion hold on every node
// (docs/players.md): the cluster tells the other nodes (internal/cluster,
// revoke.go); here is what a revocation closes on this node. A new way of
// ending a session or of barring a player (a pit's block, a password
// change) calls revoke after its change commits.

// revoke applies a revocation here, then tells the other nodes; keep is a
// socket that answers before it closes (nil: none).
func (s *Server) revoke(ctx context.Context, r sabot.Revocation, keep *socket) {
	s.cluster.Revoke(ctx, r, func(r sabot.Revocation) { s.applyRevocation(ctx, r, keep) })
}

// watchRevocations applies the revocations the other nodes make, until the
// server closes.
func (s *Server) watchRevocations() {
	if s.cluster.Revoker == nil {
		return
	}
	s.wg.Go(func() {
		s.cluster.WatchRevocations(s.ctx, func(r sabot.Revocation) { s.applyRevocation(s.ctx, r, nil) })
	})
}

// applyRevocation closes what this node holds of a revoked session or
// player: his sockets whose session is over, and, when he may no longer
// play, his places at the tables it serves.
func (s *Server) applyRevocation(ctx context.Context, r sabot.Revocation, keep *socket) {
	if r.UserID == 0 { // the watch broke: check every socket
		for _, id := range s.socketUsers() {
			s.applyRevocation(ctx, sabot.Revocation{UserID: id}, nil)
		}
		return
	}
	barred := r.Player
	if !barred {
		if err := s.excluded(ctx, r.UserID); sabot.ErrorCode(err) == sabot.EFORBIDDEN {
			barred = true
		}
	}
	if barred {
		s.revokeUser(r.UserID)
	} else {
		for _, token := range s.socketSessions(r.UserID) {
			if _, err := s.Store.SessionByToken(ctx, token); sabot.ErrorCode(err) == sabot.ENOTFOUND {
				s.revokeOthers(token, keep)
			}
		}
		if c := s.care(); c != nil {
			n, err := c.LiveSessions(ctx, r.UserID, s.now().Add(-s.timing().SessionIdle))
			barred = err == nil && n == 0 // his last session: he is gone
		}
	}
	if barred {
		s.takeOff(ctx, r.UserID)
	}
}

// takeOff takes a player off every table this node serves: his boxes
// freed, his bets for the next round returned; a round in play goes on to
// its settlement, his decisions by the timers.
func (s *Server) takeOff(ctx context.Context, userID int64) {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		s.logger().Warn("a revoked player was not found", "user", userID, "err", err)
		return
	}
	leave := actor.OpNamed(wire.OpLeave)
	for _, a := range s.tableList() {
		cmd, err := s.host.Command(u, leave, wire.Envelope{CommandID: "revoked-" + randomID(8), ClientID: "care"}, wire.Body{})
		if err != nil {
			s.logger().Warn("a revoked player was not taken off a table", "user", u.Name, "err", err)
			return
		}
		if rep := a.Do(ctx, cmd); rep.Err != nil && sabot.ErrorCode(rep.Err) != sabot.ECONFLICT { // ECONFLICT: not at that table
			s.logger().Warn("a revoked player was not taken off a table", "user", u.Name, "table", a.ID(), "err", rep.Err)
		}
	}
}

// socketUsers are the users with a socket here.
func (s *Server) socketUsers() []int64 {
	reg := &s.sockets
	reg.mu.Lock()
	defer reg.mu.Unlock()
	out := make([]int64, 0, len(reg.byUser))
	for id := range reg.byUser {
		out = append(out, id)
	}
	return out
}

// socketSessions are the sessions of a user's sockets here.
func (s *Server) socketSessions(userID int64) []string {
	reg := &s.sockets
	reg.mu.Lock()
	defer reg.mu.Unlock()
	var out []string
	for token, ks := range reg.bySession {
		for k := range ks {
			if k.user.ID == userID {
				out = append(out, token)
				break
			}
		}
	}
	return out
}
