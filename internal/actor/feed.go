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
	subs      map[*Subscriber]struct{}
	ring      []outMsg // the last events, circular from head: ringSize and ringMaxBytes at most
	head      int      // where the oldest is
	ringN     int      // how many there are
	ringBytes int      // their bytes
	seq       int64
	epoch     string
	// holding: the events published are gathered in held, sent together by
	// flush (the actor holds them while it runs a command or a timer).
	holding bool
	held    [][]byte
}

// ringSize is how many events a table keeps for clients that reconnect, and
// ringMaxBytes how many bytes of them at most (a few rounds of a full table);
// a client that missed more gets a snapshot. Bounded by bytes as well, the
// ring does not grow with the size of the events: filling it was the
// growth of the server's memory with the rounds played.
const (
	ringSize     = 1024
	ringMaxBytes = 64 << 10
)

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
	f.remember(outMsg{f.seq, data})
	f.out(data)
}

// out sends a message to every subscriber: gathered, while the feed holds.
func (f *feed) out(data []byte) {
	if f.holding {
		f.held = append(f.held, data)
		return
	}
	f.broadcast([][]byte{data})
}

// hold gathers the events published from now until flush.
func (f *feed) hold() { f.holding = true }

// flush sends the events gathered since hold to every subscriber, as one
// batch, and stops holding.
func (f *feed) flush() {
	f.holding = false
	if len(f.held) == 0 {
		return
	}
	batch := f.held
	f.held = nil // the subscribers share batch: a new one for the next
	f.broadcast(batch)
}

// remember keeps an event in the ring, the oldest going where the ring
// would pass its bounds.
func (f *feed) remember(m outMsg) {
	for f.ringN > 0 && (f.ringN >= ringSize || f.ringBytes+len(m.data) > ringMaxBytes) {
		f.ringBytes -= len(f.ring[f.head].data)
		f.ring[f.head] = outMsg{}
		f.head = (f.head + 1) % len(f.ring)
		f.ringN--
	}
	if f.ringN == len(f.ring) { // full below ringSize: it grows, oldest first
		if f.head != 0 {
			f.ring = append(f.ring[f.head:len(f.ring):len(f.ring)], f.ring[:f.head]...)
			f.head = 0
		}
		f.ring = append(f.ring, m)
	} else {
		f.ring[(f.head+f.ringN)%len(f.ring)] = m
	}
	f.ringN++
	f.ringBytes += len(m.data)
}

// ringAt is the ring's i-th event, the oldest first.
func (f *feed) ringAt(i int) outMsg { return f.ring[(f.head+i)%len(f.ring)] }

// broadcast sends a batch of messages to every subscriber.
func (f *feed) broadcast(batch [][]byte) {
	for s := range f.subs {
		f.send(s, batch)
	}
}

// send gives a subscriber a batch, or drops it when the batch would pass
// its bound (max messages not taken).
func (f *feed) send(s *Subscriber, batch [][]byte) {
	if s.queued.Load()+int64(len(batch)) > int64(s.max) {
		f.drop(s)
		return
	}
	s.queued.Add(int64(len(batch)))
	select {
	case s.ch <- batch:
	default:
		s.queued.Add(-int64(len(batch)))
		f.drop(s)
	}
}

// subscribe adds a subscriber: the events it missed since its last seq if
// the ring still has them and epoch is the feed's, else the snapshot
// snapshot makes.
func (f *feed) subscribe(s *Subscriber, since int64, epoch string, snapshot func() []byte) {
	f.subs[s] = struct{}{}
	if epoch == f.epoch && since <= f.seq && f.ringN > 0 && since >= f.ringAt(0).seq-1 {
		var missed [][]byte
		for i := range f.ringN {
			if m := f.ringAt(i); m.seq > since {
				missed = append(missed, m.data)
			}
		}
		if len(missed) > 0 {
			f.send(s, missed)
		}
		return
	}
	f.send(s, [][]byte{snapshot()})
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
