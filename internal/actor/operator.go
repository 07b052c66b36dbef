package actor

import (
	"context"
	"log/slog"

	"sabot"
	"sabot/internal/operator"
)

// operatorMoney completes a record's postings and calls for the
// operator's players it moves money of; *operator.NeedDebit when a stake
// has no acknowledged debit yet.
func (a *Table) operatorMoney(ctx context.Context, rec *sabot.LogAppend, ps []sabot.Posting) ([]sabot.Posting, error) {
	return a.debits.Money(ctx, rec, ps)
}

// operatorWritten keeps track of the debits a record written counted and
// the stakes it gave back.
func (a *Table) operatorWritten(rec *sabot.LogAppend) { a.debits.Written(rec) }

// startDebit asks the operator for the debit a command's stake waits for;
// the command's answer waits.
func (a *Table) startDebit(ctx context.Context, c *Command, nd *operator.NeedDebit) reply {
	parked, err := a.debits.Start(ctx, debitCommand{c}, nd)
	return reply{parked: parked, err: err}
}

// recoverDebits rolls back, at a table's start, every debit of its that no
// stake counted, and takes up the debits of the stakes still in play.
func (a *Table) recoverDebits(ctx context.Context) error { return a.debits.Recover(ctx) }

// debitTable is the actor as its debits see it.
type debitTable struct{ a *Table }

func (t debitTable) ID() int64                 { return t.a.cfg.ID }
func (t debitTable) Profile() string           { return t.a.cfg.Profile }
func (t debitTable) Loaded() bool              { return t.a.t != nil }
func (t debitTable) RoundNo() int              { return t.a.t.RoundNo() }
func (t debitTable) Dealt() bool               { return t.a.dealt }
func (t debitTable) Players() map[string]int64 { return t.a.players }
func (t debitTable) LastSeq() int64            { return t.a.lastSeq }
func (t debitTable) Log() *slog.Logger         { return t.a.log }

func (t debitTable) Write(ctx context.Context, rec *sabot.LogAppend) error {
	if _, err := t.a.write(ctx, rec, nil); err != nil {
		return err
	}
	t.a.track(rec.LogRecord)
	return nil
}

func (t debitTable) Run(ctx context.Context, c operator.Command) operator.Reply {
	return debitReply{t.a.handle(ctx, c.(debitCommand).c)}
}

func (t debitTable) Answer(waiters []any, r operator.Reply) {
	if t.a != nil {
		t.a.feed.flush() // the events the command caused come before its answer
	}
	rep := reply{err: r.Err()}
	if dr, ok := r.(debitReply); ok {
		rep = dr.r
	}
	for i, ch := range waiters {
		r := rep
		// The same command sent again while it was in flight: a
		// duplicate of the first, as a repeat after
		// it is answered.
		r.dup = r.dup || i > 0 && r.err == nil && !r.parked
		select {
		case ch.(chan reply) <- r: // buffered: never blocks the table
		default:
		}
	}
}

// Post sends a function to the actor's loop, unless it has stopped.
func (t debitTable) Post(fn func(ctx context.Context)) {
	select {
	case t.a.cmds <- &Command{inside: func(a *Table) reply {
		fn(context.WithoutCancel(a.s.ctx()))
		return reply{}
	}}:
	case <-t.a.done:
	}
}

// debitCommand is a command as the debits see it.
type debitCommand struct{ c *Command }

func (c debitCommand) IDs() (string, string) { return c.c.clientID, c.c.commandID }
func (c debitCommand) Name() string          { return c.c.cmd.name }

func (c debitCommand) UserID() int64 {
	if c.c.user == nil {
		return 0
	}
	return c.c.user.ID
}

func (c debitCommand) Waiter() any {
	if c.c.reply == nil {
		return nil
	}
	return c.c.reply
}

// debitReply is a command's reply as the debits see it.
type debitReply struct{ r reply }

func (r debitReply) Parked() bool { return r.r.parked }
func (r debitReply) Err() error   { return r.r.err }
