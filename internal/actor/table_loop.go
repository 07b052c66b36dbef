package actor

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sabot/card"
	"slices"
	"strings"
	"time"

	"sabot"
	"sabot/internal/operator"
	"sabot/internal/recall"
	"sabot/internal/seal"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// A table's actor runs one loop (run): a command comes in, is checked
// (the table serves; a repeated command ID is answered from memory or the
// store), runs its handler (table_commands.go), whose record and postings
// are appended in one store transaction (append), and its answer goes
// out. A write that fails half-way rebuilds the table from its log. The
// round's own progress is in table_deal.go, the timers in table_timers.go,
// the state the log rebuilds in table_state.go.

// Command is one message to a table's actor: a client's command (cmd,
// with its request, req) or a request of the server's own (inside: to see
// the table, to follow it), which the log does not record. A client's
// command carries his command ID: a repeat is answered with the first
// answer and changes nothing (GLI-19 §4.2.3).
type Command struct {
	cmd    *Op
	req    any // of the type cmd's handler takes
	user   *sabot.User
	device *sabot.Device // the card reader that sent it (POST /api/tables/{id}/cards); nil: a user
	// walkIn is the box of the walk-in the dealer sent a player's command
	// for (internal/live): it runs as the walk-in's; its record's client ID
	// keeps the dealer's user ID.
	walkIn    int
	clientID  string
	commandID string
	session   string    // the token of the session that sent it ("": none): its stakes are refused once it is over (StakeGuard)
	at        time.Time // when the server received it: AR-21 orders claims for a seat by it
	received  time.Time // the same on the process's clock (sabot_decision_seconds)
	// inside is run in the actor's loop, for the server.
	inside func(a *Table) reply
	reads  bool // inside only reads: the table changes nothing
	reply  chan reply
}

type reply struct {
	seq  int64
	dup  bool
	err  error
	view *wire.TableView
	// epoch is the table's epoch, with a snapshot (seq is then its last event's).
	epoch string
	// parked: the answer comes later (the command waits for the operator's
	// debit, operator.go), from whoever holds the command's reply channel.
	parked bool
}

// viewTable asks a table's actor for the table's view.
func viewTable(a *Table) reply { return reply{view: a.view()} }

// snapshotTable asks a table's actor for a socket's snapshot: the view, the
// table's epoch and the seq of the last event the view includes
// (docs/protocol.md, "Sequence numbers and resync").
func snapshotTable(a *Table) reply {
	return reply{view: a.view(), epoch: a.feed.epoch, seq: a.feed.seq}
}

// subscribing asks a table's actor for its events (those after since, if it
// still has them and epoch is its own; else a snapshot first).
func subscribing(sub *Subscriber, since int64, epoch string) func(*Table) reply {
	return func(a *Table) reply {
		a.subscribe(sub, since, epoch)
		return reply{}
	}
}

// unsubscribing stops a subscriber's events (it may be gone already).
func unsubscribing(sub *Subscriber) func(*Table) reply {
	return func(a *Table) reply {
		a.feed.drop(sub)
		return reply{}
	}
}

// do sends a command to the actor and waits for its answer.
func (a *Table) do(ctx context.Context, c *Command) reply {
	c.reply = make(chan reply, 1)
	select {
	case a.cmds <- c:
	case <-a.done:
		return reply{err: a.gone()}
	case <-ctx.Done():
		return reply{err: ctx.Err()}
	}
	select {
	case r := <-c.reply:
		return r
	case <-a.done:
		return reply{err: a.gone()}
	case <-ctx.Done():
		return reply{err: ctx.Err()}
	}
}

// gone is the answer of a table whose actor has stopped: moved to another
// node (try again: the request reaches it), or the server shutting down.
func (a *Table) gone() error {
	if a.fence.Moved() {
		return &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
			Message: fmt.Sprintf("table %d is moving to another node: try again", a.created.ID)}
	}
	return sabot.Errorf(sabot.ECONFLICT, "the table is not serving (the server is shutting down)")
}

// run is the actor's loop. It returns when ctx is done: the table is
// suspended, everything it did is in the log. It returns too, with moved
// set, when the table is another node's: an append was refused under an
// old lease (fenced), or the table was handed over (handOver) and no round is
// in play.
func (a *Table) run(ctx context.Context) {
	defer close(a.done)
	work := context.WithoutCancel(ctx) // a store write is never cut in half by a shutdown
	handOver := a.fence.Asked()
	for {
		if a.fence.Stop(a.dealt) {
			a.stopTimer()
			a.stopSeatTimer()
			a.feed.dropAll() // the clients reconnect, to the table's next owner
			return
		}
		select {
		case <-ctx.Done():
			a.stopTimer()
			a.stopSeatTimer()
			a.feed.dropAll()
			return
		case <-handOver:
			handOver = nil
			a.fence.Leave()
		case c := <-a.cmds:
			batch := []*Command{c}
			if isClaim(c) {
				// AR-21: requests for a seat that wait together are
				// simultaneous claims; take them together.
			drain:
				for len(batch) < cap(a.cmds) {
					select {
					case more := <-a.cmds:
						batch = append(batch, more)
					default:
						break drain
					}
				}
				a.orderClaims(batch)
			}
			for _, c := range batch {
				start := time.Now()
				if !c.reads {
					a.changes.Add(1)
				}
				a.feed.hold() // the events c causes leave together, before its answer
				r := a.handle(work, c)
				a.feed.flush()
				if r.parked {
					continue
				}
				if c.reply != nil {
					c.reply <- r
				}
				if c.cmd != nil {
					a.s.Metrics.observe(c.cmd.name, time.Since(start), r.err)
				}
			}
		case <-a.timer.c():
			a.changes.Add(1)
			a.timer.fired()
			a.feed.hold()
			a.expire(work)
			a.feed.flush()
		case <-a.seatTimer.c():
			a.changes.Add(1)
			a.seatTimer.fired()
			a.feed.hold()
			a.expireSeats(work)
			a.feed.flush()
		}
		a.armSeatTimer()
	}
}

func (a *Table) handle(ctx context.Context, c *Command) reply {
	if c.inside != nil {
		return c.inside(a)
	}
	if a.unloaded != nil {
		return reply{err: &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: retryAfter,
			Message: fmt.Sprintf("table %d is being rebuilt from its log (the database did not answer): try again", a.cfg.ID)}}
	}
	if a.closed != "" {
		return reply{err: sabot.Errorf(sabot.ECONFLICT, "table %d is out of service: %s", a.cfg.ID, a.closed).WithReason("table_closed", map[string]any{"table": a.cfg.ID})}
	}
	if c.commandID == "" {
		return reply{err: sabot.Errorf(sabot.EINVALID, "every command needs a command_id")}
	}
	// A repeated command is answered with the first answer and changes
	// nothing (GLI-19 §4.2.3): no timer, no message to anyone.
	if seq, ok := a.seen[c.clientID+"\x00"+c.commandID]; ok {
		return reply{seq: seq, dup: true}
	}
	if a.forgot {
		first, err := a.s.Store.Command(ctx, a.cfg.ID, c.clientID, c.commandID)
		if err == nil {
			a.remember(first.ClientID, first.CommandID, first.Seq)
			return reply{seq: first.Seq, dup: true}
		} else if sabot.ErrorCode(err) != sabot.ENOTFOUND {
			return reply{err: err}
		}
	}
	if a.shut != nil && c.cmd.name != wire.OpReopenTable {
		return reply{err: a.shutRefusal()} // 003 §11: closed by the pit until reopened
	}
	seq, err := a.exec(ctx, c)
	if err == nil && !a.dealt {
		a.maybeSnapshot(ctx) // records of no round count too
	}
	var nd *operator.NeedDebit
	if errors.As(err, &nd) {
		return a.startDebit(ctx, c, nd)
	}
	var dup *duplicateError
	if errors.As(err, &dup) {
		// The store knew the command though the table did not (it should
		// not happen: seen and forgot say what the table knows). What the
		// command may have changed in memory is undone by a rebuild.
		a.log.Warn("a command unknown to the table is in its log: rebuilding", "client", c.clientID, "command", c.commandID, "seq", dup.seq)
		a.rebuild(ctx)
		return reply{seq: dup.seq, dup: true}
	}
	return reply{seq: seq, err: err}
}

var errDuplicate = errors.New("duplicate command")

// duplicateError is what an append of a command already in the log
// returns: the first record's seq.
type duplicateError struct{ seq int64 }

func (e *duplicateError) Error() string {
	return fmt.Sprintf("duplicate command (log record %d)", e.seq)
}

func (e *duplicateError) Is(target error) bool { return target == errDuplicate }

// exec runs a client's command: its handler, from tableCommands.
func (a *Table) exec(ctx context.Context, c *Command) (int64, error) {
	if (c.cmd.who == byDealer || c.cmd.who == byInspector || c.cmd.who == byCutter && c.user.Staff() || c.walkIn != 0) && c.device == nil && !c.user.Admin {
		if staff := sabot.StaffOf(a.cfg.Options); staff != nil && !slices.Contains(staff, c.user.Name) {
			return 0, sabot.Errorf(sabot.EFORBIDDEN, "refused: %s is not on this table's staff (its staff option: %s)", c.user.Name, strings.Join(staff, ", "))
		}
	}
	if c.walkIn != 0 {
		if err := a.asWalkIn(c); err != nil {
			return 0, err
		}
	}
	if c.cmd.who == byPlayer {
		a.players[c.user.Name] = c.user.ID // a player's wallet, found by name at settlement
	}
	return c.cmd.run(a, ctx, c)
}

// claimTick is the resolution of the time of a claim for a seat: two
// requests for a free box received within the same tick are a tie, which
// AR-21 gives to the claimant seated nearest box 1.
const claimTick = time.Millisecond

// orderClaims puts the requests for seats in a batch of commands that
// waited together in the order AR-21 serves them: "a free box goes to the
// first player who asks; on a tie, to the one seated nearest box 1" (a
// player already seated at a box; one not yet seated comes after every
// seat). The other commands keep their places.
func (a *Table) orderClaims(batch []*Command) {
	seatOf := func(c *Command) int {
		if c.user == nil {
			return a.p.Boxes + 1
		}
		for box := 1; box <= a.p.Boxes; box++ {
			if a.t.Holder(box) == c.user.Name {
				return box
			}
		}
		return a.p.Boxes + 1
	}
	// Only requests for seats that wait next to each other are claims made
	// together: a sit never moves past another command (a leave that frees
	// the box, a bet on it).
	for i := 0; i < len(batch); {
		j := i
		for j < len(batch) && isClaim(batch[j]) {
			j++
		}
		if j-i > 1 {
			slices.SortStableFunc(batch[i:j], func(x, y *Command) int {
				tx, ty := x.at.Truncate(claimTick), y.at.Truncate(claimTick)
				if c := tx.Compare(ty); c != 0 {
					return c
				}
				return seatOf(x) - seatOf(y)
			})
		}
		i = max(j, i+1)
	}
}

// isClaim says whether a command asks for a seat (AR-21).
func isClaim(c *Command) bool {
	_, ok := c.req.(wire.Sit)
	return ok
}

// moves returns the postings that move amount from the table to a player's
// wallet (negative: from the wallet to the table).
func (a *Table) moves(ctx context.Context, player string, amount money.Amount, memo string) ([]sabot.Posting, error) {
	if amount == 0 {
		return nil, nil
	}
	w, err := a.s.account(ctx, sabot.AccountWallet, a.players[player])
	if err != nil {
		return nil, err
	}
	t, err := a.s.account(ctx, sabot.AccountTable, a.cfg.ID)
	if err != nil {
		return nil, err
	}
	return []sabot.Posting{{AccountID: w, Amount: amount, Memo: memo}, {AccountID: t, Amount: -amount, Memo: memo}}, nil
}

// append writes a record (after the seeds of any shoe the change started)
// and its postings in one store transaction.
func (a *Table) append(ctx context.Context, c *Command, kind string, round int, payload any, ps []sabot.Posting) (*sabot.LogRecord, error) {
	return a.appendStake(ctx, c, kind, round, payload, ps, nil)
}

// appendStake is append for a record that takes a player's stake: the
// guard (Host.StakeGuard) is checked in its transaction.
func (a *Table) appendStake(ctx context.Context, c *Command, kind string, round int, payload any, ps []sabot.Posting, guard *sabot.StakeGuard) (*sabot.LogRecord, error) {
	return a.appendStakes(ctx, c, kind, round, payload, ps, guard, nil)
}

// appendStakes is appendStake for a record that takes other players'
// stakes too (back bets following a decision): their guards are checked in
// its transaction as well.
func (a *Table) appendStakes(ctx context.Context, c *Command, kind string, round int, payload any, ps []sabot.Posting, guard *sabot.StakeGuard, guards []*sabot.StakeGuard) (*sabot.LogRecord, error) {
	if err := a.writeFresh(ctx); err != nil {
		return nil, err
	}
	rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: kind, RoundNo: int64(round), Payload: MustJSON(payload), Created: a.s.now()}
	req := &sabot.LogAppend{LogRecord: rec, Guard: guard, Guards: guards}
	a.index(req, payload)
	if c != nil {
		rec.ClientID, rec.CommandID = c.clientID, c.commandID
		if c.user != nil {
			rec.UserID = c.user.ID
		}
	}
	dup, err := a.write(ctx, req, ps)
	if err != nil {
		return nil, err
	}
	if dup {
		return rec, &duplicateError{seq: rec.Seq}
	}
	a.trackAs(rec, payload)
	return rec, nil
}

// index sets what the store finds a record by besides its table and round
// (in the record's transaction): the shoe of a deal, the players who bet in
// the round a settlement closes.
func (a *Table) index(rec *sabot.LogAppend, payload any) {
	switch p := payload.(type) {
	case tablelog.Deal:
		rec.ShoeNo = int64(p.Shoe)
	case tablelog.ShoeStep:
		rec.ShoeNo = int64(p.Shoe)
	case tablelog.Settle:
		if p.Closed || rec.RoundNo == 0 {
			return
		}
		for _, b := range p.Record.Bets {
			if id := a.players[b.Player]; id != 0 && !slices.Contains(rec.Users, id) {
				rec.Users = append(rec.Users, id)
			}
		}
	}
}

// writeFresh writes the record of each shoe seed drawn since the last
// record, with its commitment, and tells the players the commitment.
func (a *Table) writeFresh(ctx context.Context) error {
	for len(a.fresh) > 0 {
		seed, steps := a.fresh[0], a.freshSteps[0]
		no := a.t.ShoeNo() - len(a.fresh) + 1
		var order []card.Card
		if steps { // AR-07, EG-02: the order before the player's cut
			order = seal.ShoeOrderUncut(a.p, seed)
		} else {
			var err error
			if order, err = seal.ShoeOrder(a.p, seed); err != nil {
				return err
			}
		}
		pay := tablelog.ShoeStart{Shoe: no, Commitment: seal.Commitment(seed, order), Options: a.configured, Steps: steps}
		a.s.sealSeed(&pay, a.cfg.ID, seed)
		rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogShoe, ShoeNo: int64(no), Created: a.s.now(), Payload: MustJSON(pay)}
		if _, err := a.write(ctx, sabot.Appending(rec), nil); err != nil {
			return err
		}
		a.track(rec)
		a.shoes[no] = &shoeState{seed: seed, commitment: pay.Commitment}
		a.fresh, a.freshSteps = a.fresh[1:], a.freshSteps[1:]
		a.publish(wire.Event{Kind: wire.EvShoe, Shoe: recall.ShoeID(a.cfg.ID, no), Commitment: a.shoes[no].commitment})
	}
	return nil
}

// revealShoes reveals the seed of every shoe that is over: replaced, or
// whose last round has been played (EG-04).
func (a *Table) revealShoes(ctx context.Context) {
	for _, no := range slices.Sorted(maps.Keys(a.shoes)) {
		sh := a.shoes[no]
		if sh.revealed || no > a.t.ShoeNo() || no == a.t.ShoeNo() && !a.t.LastRound() {
			continue
		}
		rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogShoeReveal, ShoeNo: int64(no), Created: a.s.now(),
			Payload: MustJSON(tablelog.Reveal{Shoe: no, Seed: seedHex(sh.seed), Commitment: sh.commitment})}
		if _, err := a.write(ctx, sabot.Appending(rec), nil); err != nil {
			a.log.Error("shoe reveal not written", "shoe", no, "err", err)
			return
		}
		a.track(rec)
		a.publish(wire.Event{Kind: wire.EvShoeReveal, Shoe: recall.ShoeID(a.cfg.ID, no), Seed: seedHex(sh.seed), Commitment: sh.commitment})
	}
}

// rebuild throws the table's state away and replays its log: after a
// write that failed half-way, or a command the store knew and the actor
// had forgotten. Subscribers get a fresh snapshot. What the log left open
// is taken up again a moment later, by a timer, so that a write that keeps
// failing is retried, not looped on.
//
// A rebuild that fails (the database does not answer: a primary being
// replaced) leaves no state to serve from: the table answers 503 with a
// retry hint (handle) and tries the rebuild again after retryAfter, until
// it succeeds.
func (a *Table) rebuild(ctx context.Context) {
	a.stopTimer()
	if err := a.load(ctx); err != nil {
		if a.unloaded == nil {
			a.log.Error("rebuild failed: the table answers 503 and tries again every second", "err", err)
		}
		a.unloaded = err
		a.arm(rebuildTimer, retryAfter)
		return
	}
	if a.unloaded != nil {
		a.log.Info("table rebuilt after a failed rebuild")
		a.unloaded = nil
	}
	if a.dealt {
		a.sent = len(a.t.Round().Events())
		a.arm(decisionTimer, retryAfter)
	} else {
		a.armBetTimer()
	}
	a.resync()
}

// retryAfter is when a table takes up again what a failed write left open.
const retryAfter = time.Second

// resume goes on from the state the log left, live: the seeds of a shoe
// drawn at the end of the replay are written, a round over in the engine
// but not settled in the log is settled, a round in play gets its timer.
func (a *Table) resume(ctx context.Context) error {
	if a.closed != "" {
		return nil
	}
	a.revealShoes(ctx)
	if a.dealt {
		a.sent = len(a.t.Round().Events())
		a.proceed(ctx)
		return nil
	}
	a.armBetTimer()
	return nil
}
