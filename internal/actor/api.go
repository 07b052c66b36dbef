package actor

import (
	"context"
	"sync/atomic"

	"sabot"
	"sabot/engine"
	"sabot/internal/wire"
	"sabot/rules"
)

// The server's way into a table: start it, send it a command, ask for its
// view or its events, fence it. Each call is run in the table's own loop
// (its actor), one at a time, in the order they reach it.

// Start rebuilds a table from its log under the epoch of its lease (0: not
// fenced), ready to Run: every debit of the operator's that no stake
// counted is rolled back, and a round the log left open resumes.
func Start(h *Host, t *sabot.Table, epoch int64) (*Table, error) {
	a := newActor(h, t)
	a.fence.Epoch = epoch
	if err := a.load(h.ctx()); err != nil {
		return nil, err
	}
	if err := a.recoverDebits(h.ctx()); err != nil {
		return nil, err
	}
	if err := a.resume(h.ctx()); err != nil {
		return nil, err
	}
	return a, nil
}

// Run is the table's loop: it returns when ctx is done (the table is
// suspended, everything it did is in the log) or when the table is
// another node's (Moved).
func (a *Table) Run(ctx context.Context) { a.run(ctx) }

// Moved says the table stopped because it is another node's now.
func (a *Table) Moved() bool { return a.fence.Moved() }

// ID and Name are the table's, as it was created.
func (a *Table) ID() int64    { return a.created.ID }
func (a *Table) Name() string { return a.created.Name }

// Result is a command's answer: the sequence number of its record in the
// table's log and whether it was a repeat of one already applied, or why
// it was refused.
type Result struct {
	Seq int64
	Dup bool
	Err error
}

// Do applies a command at the table and waits for its answer.
func (a *Table) Do(ctx context.Context, c *Command) Result {
	r := a.do(ctx, c)
	return Result{Seq: r.seq, Dup: r.dup, Err: r.err}
}

// View is the table's view.
func (a *Table) View(ctx context.Context) (*wire.TableView, error) {
	r := a.do(ctx, &Command{inside: viewTable, reads: true})
	return r.view, r.err
}

// countedView is a view and the table's count of changes when it was read.
type countedView struct {
	changes int64
	view    *wire.TableView
}

// LobbyView is the table's view for the lobby: the one last read while the
// table has done nothing since (no command, no timer), else read again
// through its actor (GET /api/tables asked every table for
// its view each time). The view is shared: the caller does not change it.
func (a *Table) LobbyView(ctx context.Context) (*wire.TableView, error) {
	n := a.changes.Load()
	if c := a.lobbyView.Load(); c != nil && c.changes == n {
		return c.view, nil
	}
	v, err := a.View(ctx)
	if err == nil {
		a.lobbyView.Store(&countedView{n, v})
	}
	return v, err
}

// Snapshot is a socket's snapshot: the view, the table's epoch and the seq
// of the last event the view includes (docs/protocol.md, "Sequence numbers
// and resync").
func (a *Table) Snapshot(ctx context.Context) (view *wire.TableView, epoch string, seq int64, err error) {
	r := a.do(ctx, &Command{inside: snapshotTable})
	return r.view, r.epoch, r.seq, r.err
}

// Subscriber receives a table's events, each a message ready to send, in
// batches: the events one command (or one timer) of the table caused come
// together, so that its socket writes them at once.
type Subscriber struct {
	ch     chan [][]byte
	max    int
	queued atomic.Int64 // messages sent and not yet taken (Taken)
}

// NewSubscriber is a subscriber whose messages wait n at most: one that
// falls behind is dropped, its channel closed, and must resync.
func NewSubscriber(n int) *Subscriber { return &Subscriber{ch: make(chan [][]byte, n), max: n} }

// C is the subscriber's batches of messages, in order; closed when the
// table drops it. Each batch received is given back to Taken.
func (s *Subscriber) C() <-chan [][]byte { return s.ch }

// Taken tells that a batch received from C is taken: its messages no
// longer count against the subscriber's bound.
func (s *Subscriber) Taken(batch [][]byte) { s.queued.Add(-int64(len(batch))) }

// Subscribe sends the table's events to sub: those after since, if the
// table still has them and epoch is its own; else a snapshot first.
func (a *Table) Subscribe(ctx context.Context, sub *Subscriber, since int64, epoch string) error {
	return a.do(ctx, &Command{inside: subscribing(sub, since, epoch)}).err
}

// Unsubscribe stops a subscriber's events (it may be gone already). It
// does not wait for a table that is busy or gone: the table is told in
// the background.
func (a *Table) Unsubscribe(ctx context.Context, sub *Subscriber) {
	now, cancel := context.WithCancel(context.Background())
	cancel()
	a.do(now, &Command{inside: unsubscribing(sub)})
	go a.do(context.WithoutCancel(ctx), &Command{inside: unsubscribing(sub)})
}

// Fence stops a table that this node may no longer own (its lease
// expired): the actor stops after the step in hand.
func (a *Table) Fence(ctx context.Context) {
	a.do(ctx, &Command{inside: func(a *Table) reply {
		a.fence.Lose()
		return reply{}
	}})
}

// HandingOver says the table is to go to another node between rounds, and
// HandOver asks it to.
func (a *Table) HandingOver() bool { return a.fence.HandingOver() }
func (a *Table) HandOver()         { a.fence.HandOver() }

// SetSession names the session that sent the command: its stakes are
// refused once the session is over (sabot.StakeGuard).
func (c *Command) SetSession(token string) { c.session = token }

// FromDevice marks the command as a card reader's, its client ID the
// device's own.
func (c *Command) FromDevice(d *sabot.Device, clientID string) { c.clientID, c.device = clientID, d }

// Ops are the commands a client may send to a table.
func Ops() []*Op { return tableCommands }

// OpNamed is the command of that name (nil: none).
func OpNamed(name string) *Op { return tableCommandNamed(name) }

// Name is the command's name, as the URL and the op field say it.
func (o *Op) Name() string { return o.name }

// ForPlayers says a player sends the command (the dealer too, for a
// walk-in: checked with its body).
func (o *Op) ForPlayers() bool { return o.who == byPlayer }

// Allows refuses the command to anyone it is not for, citing the rule of
// the regulation of the table it is sent to (at; nil: the refusal cites
// none), never another's: the inspector's approval cites AR-23 at
// argentina, ES-01 at spain, VE-22 at venice.
func (o *Op) Allows(u *sabot.User, at *Table) error {
	if o.who.allows(u, "") == nil {
		return nil
	}
	rule := ""
	if at != nil && o.rule != "" {
		rule = at.cites(o.rule, o.option)
	}
	return o.who.allows(u, cite(rule))
}

// cites is what a refusal at the table cites of ids, or this table's
// rules with option (rules.Profile.Cite), by the profile it was created
// with: read outside its actor (a command refused before it is sent
// there), it uses nothing the actor changes.
func (a *Table) cites(ids, option string) string {
	p, err := profileOf(a.created.Profile, a.created.Options)
	if err != nil {
		return ""
	}
	return p.Cite(ids, option)
}

// PlayerOpNames lists the commands a player may send: "sit, leave, ...,
// decline".
func PlayerOpNames() string { return playerCommandNames() }

// ErrorMessage is a command's refusal as a socket sends it.
func ErrorMessage(commandID string, err error) wire.Message { return errorMessage(commandID, err) }

// EventOf is an engine event as the tables publish it.
func EventOf(e engine.Event, round int, by string) wire.Event { return eventOf(e, round, by) }

// ProfileOf is a table's rule set: its profile with its options.
func ProfileOf(profile string, options map[string]string) (*rules.Profile, error) {
	return profileOf(profile, options)
}

// Fenced is the epoch of the table's lease, and whether an append was
// refused under it (another node owns the table now).
func (a *Table) Fenced() (epoch int64, fenced bool) { return a.fence.Epoch, a.fence.Fenced() }

// Op, User, ID and Request are the command's: what it asks, who sent it,
// its command ID and its request, as read from its body.
func (c *Command) Op() *Op           { return c.cmd }
func (c *Command) User() *sabot.User { return c.user }
func (c *Command) ID() string        { return c.commandID }
func (c *Command) Request() any      { return c.req }
