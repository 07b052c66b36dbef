package actor

import (
	"encoding/json"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/wire"
)

// A client that reconnects with the epoch and the sequence number of the
// last event it saw gets exactly the events it missed, oldest first, while
// the table still has them, also after the ring of recent events has wrapped
// around; when they are gone, a snapshot.
func TestRingResync(t *testing.T) {
	s := &Host{Metrics: NewMetrics()}
	a := newActor(s, &sabot.Table{ID: 1, Name: "t"})
	for range ringSize + ringSize/2 + 3 {
		a.publish(wire.Event{Kind: "test"})
	}
	last := a.feed.seq
	for _, since := range []int64{last, last - 1, last - 10, last - ringSize + 1, last - ringSize} {
		sub := NewSubscriber(ringSize + 1)
		a.subscribe(sub, since, a.feed.epoch)
		want := since + 1
		for _, data := range sub.drain() {
			var m wire.Message
			mustUnmarshal(t, data, &m)
			if m.Type != "event" || m.Seq != want {
				t.Fatalf("since %d: got %s seq %d, want event %d", since, m.Type, m.Seq, want)
			}
			want++
		}
		if want != last+1 {
			t.Fatalf("since %d: events up to %d, want up to %d", since, want-1, last)
		}
		delete(a.feed.subs, sub)
	}
	// Older than the ring: a snapshot.
	sub := NewSubscriber(2)
	a.subscribe(sub, last-ringSize-1, a.feed.epoch)
	var m wire.Message
	mustUnmarshal(t, sub.drain()[0], &m)
	if m.Type != "snapshot" || m.Seq != last {
		t.Fatalf("too old: got %s seq %d, want the snapshot at %d", m.Type, m.Seq, last)
	}
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// The ring is bounded by its bytes as well as by its count: a table that
// plays on keeps at most ringMaxBytes of past events (the server's
// memory grew with the rounds played while the rings filled), and a client
// that reconnects from before them gets a snapshot.
func TestRingBoundedInBytes(t *testing.T) {
	s := &Host{Metrics: NewMetrics()}
	a := newActor(s, &sabot.Table{ID: 1, Name: "t"})
	text := strings.Repeat("x", 900)
	most := 0
	for range 3 * ringSize {
		a.publish(wire.Event{Kind: "test", Text: text})
		if a.feed.ringBytes > ringMaxBytes {
			t.Fatalf("the ring holds %d bytes, more than %d", a.feed.ringBytes, ringMaxBytes)
		}
		most = max(most, a.feed.ringN)
	}
	sum := 0
	for i := range a.feed.ringN {
		sum += len(a.feed.ringAt(i).data)
	}
	if sum != a.feed.ringBytes || most*1000 < ringMaxBytes/2 || most >= ringSize {
		t.Fatalf("the ring counts %d bytes, holds %d in %d events (at most %d)", a.feed.ringBytes, sum, a.feed.ringN, most)
	}
	last, kept := a.feed.seq, int64(a.feed.ringN)
	sub := NewSubscriber(ringSize + 1)
	a.subscribe(sub, last-kept, a.feed.epoch)
	if got := len(sub.drain()); got != int(kept) {
		t.Fatalf("since the oldest kept: %d events, want %d", got, kept)
	}
	delete(a.feed.subs, sub)
	sub = NewSubscriber(2)
	a.subscribe(sub, last-kept-1, a.feed.epoch)
	var m wire.Message
	mustUnmarshal(t, sub.drain()[0], &m)
	if m.Type != "snapshot" {
		t.Fatalf("older than the ring: got %s, want a snapshot", m.Type)
	}
}
