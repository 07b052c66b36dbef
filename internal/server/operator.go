package server

import (
	"context"
	"log/slog"
	"net/http"

	"sabot"
	"sabot/internal/operator"
	"sabot/internal/recall"
	"sabot/internal/wire"
	"sabot/money"
)

// The operator's wallet (issue 14; docs/wallet.md) is internal/operator:
// the debits and credits a table asks of it, the delivery of the outbox,
// money owed and the launch. The server holds one operator.Operator
// (operator()), each table actor its operator.Debits (a.debits), and this
// file wires them: the actor as the debits' operator.Table, a command as
// their operator.Command.

// Names of the operator's wallet the server's callers read.
type (
	OwedView       = operator.OwedView
	ResolveRequest = operator.ResolveRequest
)

const (
	DefaultRetryRefused     = operator.DefaultRetryRefused
	DefaultRetries          = operator.DefaultRetries
	DefaultUndeliveredAfter = operator.DefaultUndeliveredAfter
)

// operatorID is the operator's ID of a player, "" for a player of sabot's
// own wallets.
func operatorID(player string) string { return operator.PlayerID(player) }

// operator is the server's operator's wallet, made at its first use from
// the server's settings (Wallet, Currency, Wallet…).
func (s *Server) operator() *operator.Operator {
	s.opOnce.Do(func() {
		out, _ := s.Store.(sabot.Outbox) // checked at Open when there is a wallet
		var m *operator.Metrics
		if s.metrics != nil {
			m = s.metrics.wallet
		}
		s.op = operator.New(operator.Config{
			Wallet: s.Wallet, Outbox: out, Currency: s.Currency,
			Timeout: s.WalletTimeout, UndeliveredAfter: s.WalletUndeliveredAfter, RetryMost: s.WalletRetryMost,
			RetryRefused: s.WalletRetryRefused, Retries: s.WalletRetries,
			Metrics: m,
			Context: func() context.Context { return s.ctx },
			Go:      func(f func()) { s.wg.Go(f) },
			Now:     s.now, Logger: s.logger, Account: s.account,
			Event: func(ctx context.Context, u *sabot.User, e wire.AdminEvent, calls []sabot.WalletCall) error {
				_, _, err := s.eventWith(ctx, u, adminOf(e), nil, calls, "")
				return err
			},
			RoundID: recall.RoundID, ParseRoundID: recall.ParseRoundID,
		})
	})
	return s.op
}

// deliver runs the deliverer of the outbox until ctx ends.
func (s *Server) deliver(ctx context.Context) { s.operator().Deliver(ctx) }

// operatorBalance is an operator's player's balance: asked of the
// operator's wallet (within a second), or else the last it said.
func (s *Server) operatorBalance(ctx context.Context, u *sabot.User) money.Amount {
	return s.operator().Balance(ctx, u)
}

// operatorMoney completes a record's postings and calls for the
// operator's players it moves money of; *operator.NeedDebit when a stake
// has no acknowledged debit yet.
func (a *actor) operatorMoney(ctx context.Context, rec *sabot.LogRecord, ps []sabot.Posting) ([]sabot.Posting, error) {
	return a.debits.Money(ctx, rec, ps)
}

// operatorWritten keeps track of the debits a record written counted and
// the stakes it gave back.
func (a *actor) operatorWritten(rec *sabot.LogRecord) { a.debits.Written(rec) }

// startDebit asks the operator for the debit a command's stake waits for;
// the command's answer waits.
func (a *actor) startDebit(ctx context.Context, c *command, nd *operator.NeedDebit) reply {
	parked, err := a.debits.Start(ctx, debitCommand{c}, nd)
	return reply{parked: parked, err: err}
}

// recoverDebits rolls back, at a table's start, every debit of its that no
// stake counted, and takes up the debits of the stakes still in play.
func (a *actor) recoverDebits(ctx context.Context) error { return a.debits.Recover(ctx) }

// debitTable is the actor as its debits see it.
type debitTable struct{ a *actor }

func (t debitTable) ID() int64                 { return t.a.cfg.ID }
func (t debitTable) Profile() string           { return t.a.cfg.Profile }
func (t debitTable) Loaded() bool              { return t.a.t != nil }
func (t debitTable) RoundNo() int              { return t.a.t.RoundNo() }
func (t debitTable) Dealt() bool               { return t.a.dealt }
func (t debitTable) Players() map[string]int64 { return t.a.players }
func (t debitTable) LastSeq() int64            { return t.a.lastSeq }
func (t debitTable) Log() *slog.Logger         { return t.a.log }

func (t debitTable) Write(ctx context.Context, rec *sabot.LogRecord) error {
	if _, err := t.a.write(ctx, rec, nil); err != nil {
		return err
	}
	t.a.track(rec)
	return nil
}

func (t debitTable) Run(ctx context.Context, c operator.Command) operator.Reply {
	return debitReply{t.a.handle(ctx, c.(debitCommand).c)}
}

func (t debitTable) Answer(waiters []any, r operator.Reply) {
	rep := reply{err: r.Err()}
	if dr, ok := r.(debitReply); ok {
		rep = dr.r
	}
	for _, ch := range waiters {
		select {
		case ch.(chan reply) <- rep: // buffered: never blocks the table
		default:
		}
	}
}

// Post sends a function to the actor's loop, unless it has stopped.
func (t debitTable) Post(fn func(ctx context.Context)) {
	select {
	case t.a.cmds <- &command{inside: func(a *actor) reply {
		fn(context.WithoutCancel(a.s.ctx))
		return reply{}
	}}:
	case <-t.a.done:
	}
}

// debitCommand is a command as the debits see it.
type debitCommand struct{ c *command }

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

// Owed lists the money owed.
func (s *Server) Owed(ctx context.Context) ([]OwedView, error) { return s.operator().Owed(ctx) }

// ResolveOwed closes an item of money owed by hand, with the reason, as a
// significant event.
func (s *Server) ResolveOwed(ctx context.Context, u *sabot.User, id string, req ResolveRequest) error {
	return s.operator().ResolveOwed(ctx, u, id, req)
}

func (s *Server) handleOwed(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	owed, err := s.Owed(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, owed)
}

func (s *Server) handleResolveOwed(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req ResolveRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.ResolveOwed(r.Context(), u, r.PathValue("id"), req); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.CommandResult{OK: true})
}
