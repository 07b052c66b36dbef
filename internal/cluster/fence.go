package cluster

import (
	"errors"
	"sync"
	"sync/atomic"

	"sabot"
)

// Fence is a table's hold on its lease, kept by the table's actor: the
// epoch of the lease, which every append carries; fenced once the store
// refused an append under it (another node owns the table now) or the
// node's own lease was lost; and the hand-over between rounds that the
// node asks for, which the actor sees (Leave) and carries out once no
// round is in play. Moved is set, for other goroutines, when the actor
// stops for either. Fenced and Leave are the actor's goroutine's.
type Fence struct {
	// Epoch is the epoch of the table's lease (0: not fenced).
	Epoch int64

	fenced   bool
	leaving  bool
	handOver chan struct{}
	handOnce sync.Once
	moved    atomic.Bool
}

// NewFence is a table's fence before its lease is known.
func NewFence() *Fence { return &Fence{handOver: make(chan struct{})} }

// Refused reports whether an append's error is the store's first refusal
// of the table's epoch: the table is fenced, the actor stops after the
// step in hand and the node drops the table.
func (f *Fence) Refused(err error) bool {
	if errors.Is(err, sabot.ErrFenced) && !f.fenced {
		f.fenced = true
		return true
	}
	return false
}

// Lose fences a table that this node may no longer own (its lease
// expired): the actor stops after the step in hand.
func (f *Fence) Lose() { f.fenced = true }

// Fenced reports whether the table is fenced.
func (f *Fence) Fenced() bool { return f.fenced }

// HandOver asks the table's actor to stop between rounds for another
// node; from any goroutine, any number of times.
func (f *Fence) HandOver() { f.handOnce.Do(func() { close(f.handOver) }) }

// HandingOver reports whether the table has been asked to hand over.
func (f *Fence) HandingOver() bool {
	select {
	case <-f.handOver:
		return true
	default:
		return false
	}
}

// Asked is closed once the table is asked to hand over.
func (f *Fence) Asked() <-chan struct{} { return f.handOver }

// Leave records that the actor has seen the hand-over asked.
func (f *Fence) Leave() { f.leaving = true }

// Stop reports whether the actor stops now for another node: fenced, or
// leaving with no round dealt (dealt: a round is in play). Once it does,
// Moved is true.
func (f *Fence) Stop(dealt bool) bool {
	if f.fenced || f.leaving && !dealt {
		f.moved.Store(true)
		return true
	}
	return false
}

// Moved reports whether the actor has stopped for another node.
func (f *Fence) Moved() bool { return f.moved.Load() }
