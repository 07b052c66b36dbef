package sqlstore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"sabot"
)

// Group commit.
//
// Append does not run a transaction of its own: it queues its record for a
// writer, a goroutine that takes every append queued for it, writes them in
// one transaction — each under a savepoint of its own, so that a refused
// append (an insufficient wallet, a duplicate command, a table that does not
// exist) rolls back only itself — and commits them with one sync. Each caller
// gets its own outcome (Seq, duplicate or error) only when that commit has
// returned: an append is never acknowledged before it is durable.
//
// A writer takes what is queued when it is ready and adds no delay: one
// append alone is committed at once, and the appends that arrive during a
// commit go together in the next. A table's appends always go to the same
// writer, in the order they were queued; SQLite has one writer, PostgreSQL
// several (Config.Writers), which commit side by side.
//
// Decisions go first. A player waits for the record of his decision before
// he sees it applied, while a burst of bets (every player of every table
// betting as the rounds settle) waits for nobody in particular. A writer
// has two queues: the records of decisions (sabot.LogAction, LogTimeout)
// and the rest. A batch takes the decisions queued, then fills up from the
// rest, and a batch is at most MaxBatch appends, so that a decision waits
// at most for the batch being committed and its own. Each table has at most
// one append on its way at a time (its actor waits for each), so a table's
// appends still commit in the order it made them.
//
// A transaction that fails as a whole (a database error, not a refusal) is
// retried when the driver says it may be (ErrRetry), then each of its appends
// is tried again alone, so that one bad append cannot fail the others: every
// append ends with exactly the outcome it would have had on its own.

// Config tunes the group commit.
type Config struct {
	// Writers is the number of writers, each committing its own batches;
	// a table's appends always go to the same one. 0 means 1.
	Writers int
	// MaxBatch bounds the appends of one transaction. 0 means 64: about
	// 5 ms of SQLite's work (appends with postings), the longest a
	// decision waits behind a batch being committed.
	MaxBatch int
	// Clock is an SQL expression for the database's clock in microseconds
	// since the Unix epoch, which times the nodes' leases (cluster.go); ""
	// takes this process's clock (SQLite: one process).
	Clock string
	// Positional says that the driver binds `?` parameters in order, as
	// SQLite does, where a `$N` is found by name in a list, so that a
	// statement's parameters cost the square of their number: the bulk
	// load's multi-row INSERTs (bulk.go) write `?` there.
	Positional bool
	// OneWriter says that the database admits one writing transaction at
	// a time (SQLite's lock of the whole database): a transaction's
	// accounts are then updated in one statement, in no lock order
	// (applyNets). PostgreSQL locks rows, and two transactions that took
	// the same accounts in different orders could deadlock: there each
	// account is its own UPDATE, in the order of the IDs.
	OneWriter bool
}

// GroupStats counts what the writers committed.
type GroupStats struct {
	Appends      int64 // appends written (not refused, not duplicates)
	Refused      int64 // appends refused or found to be duplicates
	Transactions int64 // transactions committed that held appends
	Largest      int64 // the most appends in one transaction
}

// ObserveCommits makes the store a sabot.CommitObserver: fn is called on
// the writer's goroutine after each transaction of appends it commits.
func (s *Store) ObserveCommits(fn func(sabot.CommitStats)) {
	if fn == nil {
		s.group.observe.Store(nil)
		return
	}
	s.group.observe.Store(&fn)
}

// BatchAppend is one append of AppendBatch: the record and postings of
// Append, and what Append would return.
type BatchAppend struct {
	Rec      *sabot.LogAppend
	Postings []sabot.Posting
	Dup      bool
	Err      error
}

var errClosed = sabot.Errorf(sabot.EINTERNAL, "the store is closed")

// pending is an append on its way through a writer.
type pending struct {
	rec      *sabot.LogAppend // the caller's: read-only until done
	payload  any
	postings []sabot.Posting
	idem     bool
	created  time.Time
	state    atomic.Int32
	done     chan struct{}
	queued   time.Time // when it reached its writer

	// The outcome, set by the writer before done is closed.
	seq int64
	err error
}

const (
	queued int32 = iota
	taken
	abandoned
)

// take claims a queued append for a batch; false if its caller gave up.
func (p *pending) take() bool { return p.state.CompareAndSwap(queued, taken) }

// abandon withdraws a queued append; false if a writer already took it.
func (p *pending) abandon() bool { return p.state.CompareAndSwap(queued, abandoned) }

type writer struct {
	s       *Store
	conn    Conn
	urgent  chan *pending // decisions
	queue   chan *pending // the rest
	stopped chan struct{}
}

type group struct {
	writers  []*writer
	maxBatch int
	quit     chan struct{}
	once     sync.Once
	wg       sync.WaitGroup

	appends, refused, txs, largest atomic.Int64
	observe                        atomic.Pointer[func(sabot.CommitStats)]
}

func (s *Store) startGroup(cfg Config) {
	n := max(cfg.Writers, 1)
	g := &group{maxBatch: cfg.MaxBatch, quit: make(chan struct{})}
	if g.maxBatch <= 0 {
		g.maxBatch = 64
	}
	s.group = g
	for range n {
		w := &writer{s: s, urgent: make(chan *pending, 4096), queue: make(chan *pending, 4096), stopped: make(chan struct{})}
		g.writers = append(g.writers, w)
		g.wg.Go(w.run)
	}
}

// Close stops the writers: the batch being committed completes, appends
// still queued fail. The driver closes its Conn after it.
func (s *Store) Close() error {
	s.group.once.Do(func() { close(s.group.quit) })
	s.group.wg.Wait()
	return nil
}

// GroupStats returns the counts of the group commit so far.
func (s *Store) GroupStats() GroupStats {
	g := s.group
	return GroupStats{Appends: g.appends.Load(), Refused: g.refused.Load(), Transactions: g.txs.Load(), Largest: g.largest.Load()}
}

// submit queues p on its table's writer and waits for its outcome. It
// returns early, with p not written, only if ctx ends or the store closes
// before a writer took p.
func (s *Store) submit(ctx context.Context, p *pending) error {
	w := s.group.writers[uint64(p.rec.TableID)%uint64(len(s.group.writers))]
	q := w.queue
	if p.urgent() {
		q = w.urgent
	}
	p.queued = time.Now()
	select {
	case q <- p:
	case <-ctx.Done():
		return ctx.Err()
	case <-w.stopped:
		return errClosed
	case <-s.group.quit:
		return errClosed
	}
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		if p.abandon() {
			return ctx.Err()
		}
	case <-w.stopped:
		if p.abandon() {
			return errClosed
		}
	}
	<-p.done // in a batch already: its outcome is on its way
	return nil
}

func (p *pending) urgent() bool {
	return p.rec.Kind == sabot.LogAction || p.rec.Kind == sabot.LogTimeout
}

func (w *writer) run() {
	defer close(w.stopped)
	conn, release := w.s.conn.Writer()
	defer release()
	w.conn = conn
	g := w.s.group
	batch := make([]*pending, 0, g.maxBatch)
	var waits []time.Duration
	for {
		clear(batch) // the last batch's appends are their callers' again
		batch = batch[:0]
		select {
		case <-g.quit:
			return
		case p := <-w.urgent:
			if p.take() {
				batch = append(batch, p)
			}
		case p := <-w.queue:
			if p.take() {
				batch = append(batch, p)
			}
		}
		// The decisions queued first, then the rest.
		for _, q := range [2]chan *pending{w.urgent, w.queue} {
		gather:
			for len(batch) < g.maxBatch {
				select {
				case p := <-q:
					if p.take() {
						batch = append(batch, p)
					}
				default:
					break gather
				}
			}
		}
		if len(batch) == 0 {
			continue
		}
		start := time.Now()
		w.s.commit(context.Background(), w.conn, batch)
		fn := g.observe.Load()
		var stats sabot.CommitStats
		if fn != nil {
			// Read before the appends go back to their callers.
			stats.Appends, stats.Took = len(batch), time.Since(start)
			waits = waits[:0]
			for _, p := range batch {
				if p.urgent() {
					waits = append(waits, start.Sub(p.queued))
				}
			}
			stats.Waits = waits
		}
		for _, p := range batch {
			close(p.done)
		}
		if fn != nil {
			(*fn)(stats) // after the callers have their outcome
		}
	}
}

// refused reports whether an append's error is its own refusal (a sabot
// error other than internal, or a duplicate), which rolls back only itself,
// rather than a failure of the database.
func refused(err error) bool {
	if errors.Is(err, errDup) {
		return true
	}
	var e *sabot.Error
	return errors.As(err, &e) && e.Code != sabot.EINTERNAL
}

// commit writes a batch of appends in one transaction and sets each one's
// outcome. A refused append is rolled back to its savepoint; the others
// commit. If the transaction fails as a whole, each append is tried alone.
func (s *Store) commit(ctx context.Context, conn Conn, batch []*pending) {
	err := writeOn(ctx, conn, func(tx Tx) error {
		for _, p := range batch {
			p.seq, p.err = 0, nil
		}
		if len(batch) == 1 {
			return s.appendTx(ctx, tx, batch[0]) // a refusal rolls the transaction back
		}
		for _, p := range batch {
			// Only an append with a command ID (a duplicate), postings (a
			// wallet that cannot pay), wallet calls (a debit counted
			// twice) or a stake's guard (a player no longer eligible) can
			// be refused after it wrote something; any other is refused
			// by its first statement, if at all, before it changed
			// anything.
			save := p.idem || len(p.postings) > 0 || len(p.rec.Calls) > 0 || len(p.rec.Counts) > 0 || p.rec.Guard != nil || len(p.rec.Guards) > 0
			if save {
				if _, err := tx.Exec(ctx, `SAVEPOINT append`); err != nil {
					return err
				}
			}
			err := s.appendTx(ctx, tx, p)
			if err != nil && !refused(err) {
				return err
			}
			p.err = err
			if err != nil && save {
				if _, err := tx.Exec(ctx, `ROLLBACK TO SAVEPOINT append`); err != nil {
					return err
				}
			}
			if save {
				if _, err := tx.Exec(ctx, `RELEASE SAVEPOINT append`); err != nil {
					return err
				}
			}
		}
		return nil
	})
	g := s.group
	switch {
	case err == nil:
		g.txs.Add(1)
		for {
			l := g.largest.Load()
			if int64(len(batch)) <= l || g.largest.CompareAndSwap(l, int64(len(batch))) {
				break
			}
		}
	case len(batch) == 1:
		batch[0].err = err
	case errors.Is(err, ErrCommitUnknown):
		// Written or not: each append alone again could write one twice.
		for _, p := range batch {
			p.err = err
		}
	default:
		for _, p := range batch {
			s.commit(ctx, conn, []*pending{p})
		}
		return
	}
	for _, p := range batch {
		if p.err == nil {
			g.appends.Add(1)
		} else if refused(p.err) {
			g.refused.Add(1)
		}
	}
}

// AppendBatch writes the appends given as one batch, in order, in one
// transaction when they allow it, exactly as a writer commits what Append
// queued: each gets Append's outcome (Dup, Err, and its Rec filled), and a
// refused one does not affect the others. Appends to a table already in a
// writer's queue may commit before or after the batch.
func (s *Store) AppendBatch(ctx context.Context, batch []BatchAppend) {
	ps := make([]*pending, 0, len(batch))
	idx := make([]int, 0, len(batch))
	for i := range batch {
		b := &batch[i]
		p, err := s.prepare(b.Rec, b.Postings)
		if err != nil {
			b.Dup, b.Err = false, err
			continue
		}
		ps, idx = append(ps, p), append(idx, i)
	}
	if len(ps) > 0 {
		s.commit(ctx, s.conn, ps)
	}
	for j, p := range ps {
		b := &batch[idx[j]]
		b.Dup, b.Err = s.outcome(ctx, b.Rec, p)
	}
}
