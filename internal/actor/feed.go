package actor

import (
	"encoding/json"

	"sabot/internal/wire"
)

// feed is a table's publication of its events: its subscribers, the
// sequence number of its last event, its epoch (a new one each time the
// actor starts: a client's sequence numbers hold within an epoch) and the
// ring of the last events, for clients that reconnect. The actor owns it;
// only its loop uses it.
type feed struct {
	subs  map[*Subscriber]struct{}
	ring  []outMsg // the last events: ringSize at most, then circular
	head  int      // where the oldest is in a full ring
	seq   int64
	epoch string
}

// ringSize is how many events a table keeps for clients that reconnect.
const ringSize = 1024

// outMsg is an event as it was sent.
type outMsg struct {
	seq  int64
	data []byte
}

func newFeed() feed { return feed{subs: map[*Subscriber]struct{}{}, epoch: RandomID(8)} }

// publish numbers an event and sends it to every subscriber. A subscriber
// too slow to take it is dropped: its client reconnects and resyncs.
func (f *feed) publish(e wire.Event) {
	f.seq++
	data, _ := json.Marshal(wire.Message{Type: wire.MsgEvent, Seq: f.seq, Event: &e})
	m := outMsg{f.seq, data}
	if len(f.ring) < ringSize {
		f.ring = append(f.ring, m)
	} else { // full: the newest replaces the oldest
		f.ring[f.head] = m
		f.head = (f.head + 1) % ringSize
	}
	f.broadcast(data)
}

// broadcast sends a message to every subscriber.
func (f *feed) broadcast(data []byte) {
	for s := range f.subs {
		f.send(s, data)
	}
}

func (f *feed) send(s *Subscriber, data []byte) {
	select {
	case s.ch <- data:
	default:
		f.drop(s)
	}
}

// subscribe adds a subscriber: the events it missed since its last seq if
// the ring still has them and epoch is the feed's, else the snapshot
// snapshot makes.
func (f *feed) subscribe(s *Subscriber, since int64, epoch string, snapshot func() []byte) {
	f.subs[s] = struct{}{}
	if n := len(f.ring); epoch == f.epoch && since <= f.seq && n > 0 && since >= f.ring[f.head].seq-1 {
		for i := range n {
			if m := f.ring[(f.head+i)%n]; m.seq > since {
				f.send(s, m.data)
			}
		}
		return
	}
	f.send(s, snapshot())
}

// drop stops a subscriber's events (if it still has them): its channel
// closes.
func (f *feed) drop(s *Subscriber) {
	if _, ok := f.subs[s]; ok {
		delete(f.subs, s)
		close(s.ch)
	}
}

// dropAll drops every subscriber: their clients reconnect (to the table's
// next owner, or after a restart).
func (f *feed) dropAll() {
	for s := range f.subs {
		f.drop(s)
	}
}
