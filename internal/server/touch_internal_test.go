package server

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"sabot"
)

// touchStore records the session touches a server writes.
type touchStore struct {
	sabot.Store
	one     []string
	batches []map[string]time.Time
	fail    error
}

func (s *touchStore) TouchSession(_ context.Context, token string, _ time.Time) error {
	s.one = append(s.one, token)
	return nil
}

func (s *touchStore) TouchSessions(_ context.Context, seen map[string]time.Time) error {
	if s.fail != nil {
		return s.fail
	}
	s.batches = append(s.batches, maps.Clone(seen))
	return nil
}

// The sessions' touches of an interval are written in one transaction, not
// one each (with 700 players, some 50 syncs a second taken from the group
// commit that records the decisions); until written, this node reads them
// with the store's, so a session used is never taken for idle here; a
// failed write is tried again, the latest use of each session kept.
func TestSessionTouchesTogether(t *testing.T) {
	t.Parallel()
	st := &touchStore{}
	s := &Server{Store: st}
	ctx := context.Background()
	t0 := time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)
	t1, t2 := t0.Add(20*time.Second), t0.Add(40*time.Second)

	// Not running (no Start): written at once, as before.
	s.touch(ctx, "a", t1)
	if len(st.one) != 1 || len(st.batches) != 0 {
		t.Fatalf("a touch without a flusher: %d single, %d batches; want it written at once", len(st.one), len(st.batches))
	}

	s.touches.running = true
	s.touch(ctx, "a", t2)
	s.touch(ctx, "a", t1) // an older use does not go back
	s.touch(ctx, "b", t1)
	if len(st.one) != 1 || len(st.batches) != 0 {
		t.Fatalf("touches written before their interval: %d single, %d batches", len(st.one), len(st.batches))
	}
	if got := s.seen("a", t0); !got.Equal(t2) {
		t.Fatalf("seen(a) before the write: %v, want the pending %v", got, t2)
	}
	if got := s.seen("c", t0); !got.Equal(t0) {
		t.Fatalf("seen(c), never touched: %v, want the stored %v", got, t0)
	}
	if got := s.seen("a", t2.Add(time.Second)); !got.Equal(t2.Add(time.Second)) {
		t.Fatalf("seen(a) with a later stored use: %v", got)
	}

	st.fail = errors.New("database is locked")
	s.flushTouches(ctx)
	if got := s.seen("a", t0); !got.Equal(t2) {
		t.Fatalf("after a failed write seen(a) = %v, want %v kept", got, t2)
	}
	st.fail = nil
	t3 := t2.Add(time.Second)
	s.touch(ctx, "b", t3)
	s.flushTouches(ctx)
	if len(st.batches) != 1 {
		t.Fatalf("%d batches, want 1", len(st.batches))
	}
	want := map[string]time.Time{"a": t2, "b": t3}
	if !maps.EqualFunc(st.batches[0], want, time.Time.Equal) {
		t.Fatalf("batch %v, want %v", st.batches[0], want)
	}
	if got := s.seen("a", t0); !got.Equal(t0) {
		t.Fatalf("after the write seen(a) = %v, want the store's", got)
	}
	s.flushTouches(ctx)
	if len(st.batches) != 1 {
		t.Fatalf("an empty flush wrote a batch")
	}
}
