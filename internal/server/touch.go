package server

import (
	"context"
	"sync"
	"time"
)

// Session touches, written together.
//
// A session's LastSeen is written when it is used after a quarter of a
// minute unused: with 700 players at 100 tables that was some 50 write
// transactions a second, each with a sync of its own, each taking
// SQLite's one write turn from the group commit that records the players'
// decisions. The touches of a short interval (touchEvery) go in one
// transaction instead. Until then this node reads its own pending touches
// with the store's (seen), so that nothing here takes a session for idle
// that was used; another node reads the store alone, later by at most
// touchEvery, which is nothing beside a session's idle limit (minutes).
// Ending a session deletes it: a touch after that changes nothing.

// touchEvery is how long a touch waits for others to go with it.
const touchEvery = 500 * time.Millisecond

type touches struct {
	mu      sync.Mutex
	pending map[string]time.Time // by session token: when it was used
	running bool                 // a flusher runs (Start): else a touch is written at once
}

// touch records that a session was used at a time.
func (s *Server) touch(ctx context.Context, token string, at time.Time) {
	t := &s.touches
	t.mu.Lock()
	if !t.running {
		t.mu.Unlock()
		s.Store.TouchSession(ctx, token, at)
		return
	}
	if t.pending == nil {
		t.pending = map[string]time.Time{}
	}
	if at.After(t.pending[token]) {
		t.pending[token] = at
	}
	t.mu.Unlock()
}

// seen is the later of a session's LastSeen as stored and its touch still
// to be written here.
func (s *Server) seen(token string, stored time.Time) time.Time {
	t := &s.touches
	t.mu.Lock()
	defer t.mu.Unlock()
	if at, ok := t.pending[token]; ok && at.After(stored) {
		return at
	}
	return stored
}

// flushTouches writes the touches pending in one transaction. A failed
// write keeps them for the next (a later touch of the same session wins).
func (s *Server) flushTouches(ctx context.Context) {
	t := &s.touches
	t.mu.Lock()
	batch := t.pending
	t.pending = nil
	t.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	if err := s.Store.TouchSessions(ctx, batch); err != nil {
		s.logger().Warn("sessions' last use not written: tried again", "sessions", len(batch), "err", err)
		t.mu.Lock()
		if t.pending == nil {
			t.pending = map[string]time.Time{}
		}
		for token, at := range batch {
			if at.After(t.pending[token]) {
				t.pending[token] = at
			}
		}
		t.mu.Unlock()
	}
}

// runTouches writes the touches every touchEvery until the server closes,
// then once more.
func (s *Server) runTouches() {
	s.touches.mu.Lock()
	s.touches.running = true
	s.touches.mu.Unlock()
	s.wg.Go(func() {
		tick := time.NewTicker(touchEvery)
		defer tick.Stop()
		for {
			select {
			case <-s.ctx.Done():
				s.touches.mu.Lock()
				s.touches.running = false
				s.touches.mu.Unlock()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				s.flushTouches(ctx)
				cancel()
				return
			case <-tick.C:
				s.flushTouches(s.ctx)
			}
		}
	})
}
