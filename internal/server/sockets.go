package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"sabot"
)

// The limits on WebSockets (docs/server.md, "Abuse and
// limits"): one user holds at most MaxSockets at once, over every table; a
// socket's messages are read at most SocketRate a second (bursts of
// SocketBurst), the others wait; a socket lives no longer than its session.
const (
	DefaultMaxSockets  = 8
	DefaultSocketRate  = 20 // messages a second
	DefaultSocketBurst = 40
	DefaultSocketPing  = 10 * time.Second
)

func (s *Server) maxSockets() int {
	if s.MaxSockets == 0 {
		return DefaultMaxSockets
	}
	return s.MaxSockets
}

// socketLimiter is a socket's limit on messages (nil: none).
func (s *Server) socketLimiter() *rate.Limiter {
	r, b := s.SocketRate, s.SocketBurst
	if r < 0 {
		return nil
	}
	if r == 0 {
		r = DefaultSocketRate
	}
	if b <= 0 {
		b = max(DefaultSocketBurst, int(r))
	}
	return rate.NewLimiter(rate.Limit(r), b)
}

// socket is one open WebSocket, as its session and its user's limit see it.
type socket struct {
	user    *sabot.User
	token   string // the session's (its hash, as the store keeps it)
	limiter *rate.Limiter

	revoked  chan struct{} // closed when the session is over: the socket closes
	once     sync.Once
	lastUsed atomic.Int64 // when the session was last known used (Unix ns, Server.now)
}

func (k *socket) revoke() { k.once.Do(func() { close(k.revoked) }) }

func (k *socket) isRevoked() bool {
	select {
	case <-k.revoked:
		return true
	default:
		return false
	}
}

// sockets keeps the open WebSockets by user and by session.
type sockets struct {
	mu        sync.Mutex
	byUser    map[int64]int
	bySession map[string]map[*socket]struct{}
}

// openSocket counts a new socket of a user's session, or refuses it when
// the user holds his limit already.
func (s *Server) openSocket(u *sabot.User, token string) (*socket, error) {
	reg := &s.sockets
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.byUser == nil {
		reg.byUser, reg.bySession = map[int64]int{}, map[string]map[*socket]struct{}{}
	}
	if n, limit := reg.byUser[u.ID], s.maxSockets(); limit > 0 && n >= limit {
		return nil, sabot.Errorf(sabot.ETHROTTLED, "too many WebSockets: %s has %d open, at most %d; close one first", u.Name, n, limit)
	}
	k := &socket{user: u, token: token, limiter: s.socketLimiter(), revoked: make(chan struct{})}
	k.lastUsed.Store(s.now().UnixNano())
	reg.byUser[u.ID]++
	if reg.bySession[token] == nil {
		reg.bySession[token] = map[*socket]struct{}{}
	}
	reg.bySession[token][k] = struct{}{}
	return k, nil
}

func (s *Server) closeSocket(k *socket) {
	reg := &s.sockets
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.byUser[k.user.ID]--; reg.byUser[k.user.ID] <= 0 {
		delete(reg.byUser, k.user.ID)
	}
	delete(reg.bySession[k.token], k)
	if len(reg.bySession[k.token]) == 0 {
		delete(reg.bySession, k.token)
	}
}

// revokeSession closes every socket of a session that is over (logout,
// idle expiry): from now on they run no command.
func (s *Server) revokeSession(token string) { s.revokeOthers(token, nil) }

// revokeUser revokes every socket of a user, in every session (an
// exclusion).
func (s *Server) revokeUser(id int64) {
	reg := &s.sockets
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for _, ks := range reg.bySession {
		for k := range ks {
			if k.user.ID == id {
				k.revoke()
			}
		}
	}
}

// revokeOthers revokes the sockets of a session but one (which closes on
// its own, after its answer).
func (s *Server) revokeOthers(token string, keep *socket) {
	reg := &s.sockets
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for k := range reg.bySession[token] {
		if k != keep {
			k.revoke()
		}
	}
}

// errSessionOver refuses a command on a socket whose session is over.
var errSessionOver = sabot.Errorf(sabot.EUNAUTHORIZED, "log in again: the session is over (logged out or idle too long); this socket is closed")

// sessionLive says whether a socket's session still holds. A session
// unused for Timing.SessionIdle (by this socket as far as it knows, then by
// the store's account) is over: deleted, its sockets revoked. With use (a
// message received), the session is used, as by a request: a player who
// plays only over the socket stays logged in; a socket merely open does
// not keep its session.
func (s *Server) sessionLive(ctx context.Context, k *socket, use bool) bool {
	if k.isRevoked() {
		return false
	}
	now := s.now()
	last := time.Unix(0, k.lastUsed.Load())
	idle := s.timing().SessionIdle
	if now.Sub(last) > idle {
		// Perhaps used elsewhere (HTTP, another socket): ask the store.
		sess, err := s.Store.SessionByToken(ctx, k.token)
		if err != nil && sabot.ErrorCode(err) != sabot.ENOTFOUND {
			// The store cannot tell now: the session stands, asked again later.
			s.logger().Warn("a socket's session not checked", "user", k.user.Name, "err", err)
			return true
		}
		if err == nil {
			sess.LastSeen = s.seen(k.token, sess.LastSeen) // a touch of this node's not yet written
		}
		if err != nil || now.Sub(sess.LastSeen) > idle {
			if err == nil {
				s.Store.DeleteSession(ctx, k.token)
			}
			if use {
				s.revokeOthers(k.token, k) // k answers, then closes
				s.revoke(ctx, sabot.Revocation{UserID: k.user.ID}, k)
			} else {
				s.revokeSession(k.token)
				s.revoke(ctx, sabot.Revocation{UserID: k.user.ID}, nil) // on every node
			}
			return false
		}
		last = sess.LastSeen
		k.lastUsed.Store(last.UnixNano())
	}
	if use && now.Sub(last) > time.Minute/4 {
		s.touch(ctx, k.token, now)
		k.lastUsed.Store(now.UnixNano())
	}
	return true
}

// idleCheck is when a socket's session would be idle too long if nobody
// used it: then the socket asks whether it is over.
func (s *Server) idleCheck(k *socket) time.Duration {
	due := time.Unix(0, k.lastUsed.Load()).Add(s.timing().SessionIdle)
	return max(due.Sub(s.now()), time.Second) + time.Millisecond
}

// pace holds a socket's next message until its rate allows it (the
// socket's reader waits, so that a client sending faster than SocketRate
// fills its own connection's buffers, not the server's): a flood is slowed
// to the rate, a client that is merely quick is never refused. It returns
// early when the socket's session is over or ctx ends.
func (s *Server) pace(ctx context.Context, k *socket) error {
	if k.limiter == nil {
		return nil
	}
	for waited := false; ; waited = true {
		now := s.now()
		r := k.limiter.ReserveN(now, 1)
		d := r.DelayFrom(now)
		if d == 0 {
			return nil
		}
		r.CancelAt(now) // the token is taken when the wait is over
		if !waited {
			s.metrics.paced.Inc()
		}
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-k.revoked:
			t.Stop()
			return errSessionOver
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}
