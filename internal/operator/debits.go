package operator

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wallet"
	"sabot/money"
)

// Table is what a table's debits ask of the table's actor. Every method
// but Post is called in the actor's goroutine, as are the Debits'.
type Table interface {
	ID() int64
	Profile() string
	// Loaded says whether the table has been rebuilt from its log; RoundNo
	// is its round, and Dealt whether that round was dealt and not yet
	// settled or void.
	Loaded() bool
	RoundNo() int
	Dealt() bool
	// Players are the players at the table: name → user ID.
	Players() map[string]int64
	// LastSeq is the sequence number of the table's last record.
	LastSeq() int64
	// Write appends a record of the table's, as its own.
	Write(ctx context.Context, rec *sabot.LogAppend) error
	// Run runs a command again, its debit answered.
	Run(ctx context.Context, c Command) Reply
	// Answer gives a command's waiters (Command.Waiter) its answer.
	Answer(waiters []any, r Reply)
	// Post runs fn in the actor's goroutine, unless the actor has stopped.
	Post(fn func(ctx context.Context))
	Log() *slog.Logger
}

// Command is a table command whose stake waits for its debit.
type Command interface {
	// IDs are the client's and the command's: the same command again
	// waits for the same debit.
	IDs() (client, command string)
	// Name is the command's, as the player reads it.
	Name() string
	// UserID is who sent it (0: nobody).
	UserID() int64
	// Waiter is where its answer goes (nil: nowhere).
	Waiter() any
}

// Reply is a command's answer, as the table gives it.
type Reply interface {
	// Parked says the command waits (for another debit).
	Parked() bool
	Err() error
}

// refused is a Reply that refuses a command.
type refused struct{ err error }

func (r refused) Parked() bool { return false }
func (r refused) Err() error   { return r.err }

// Debits are a table's debits of the operator's players: acknowledged and
// not staked yet (funded), staked in the stakes still in play (staked), and
// the commands waiting for a debit's answer (debiting); their balances as
// the operator last said them. A rebuild of the table keeps them: the log
// does not hold them.
type Debits struct {
	o        *Operator
	t        Table
	funded   map[string][]debitRef
	staked   map[string][]debitRef
	debiting map[string]*debitWait
	balances map[string]money.Amount
}

// Debits returns a table's debits, empty.
func (o *Operator) Debits(t Table) *Debits {
	return &Debits{o: o, t: t, funded: map[string][]debitRef{}, staked: map[string][]debitRef{},
		debiting: map[string]*debitWait{}, balances: map[string]money.Amount{}}
}

// debitRef is a debit acknowledged: its transaction ID, amount, and the
// round it is for (its rollback's).
type debitRef struct {
	id     string
	amount money.Amount
	round  string
}

// NeedDebit is what Money returns for a record that stakes an operator's
// player's money before the operator has been debited for it: the table
// asks for the debit (Start).
type NeedDebit struct {
	player string
	amount money.Amount
	kind   string // what the stake is: bet, double, split, insurance…
}

func (e *NeedDebit) Error() string {
	return fmt.Sprintf("%s's stake of %s waits for the operator's debit", e.player, e.amount)
}

// debitWait is a command waiting for its debit's answer.
type debitWait struct {
	c       Command
	id      string
	player  string
	amount  money.Amount
	round   string
	waiters []any // the command's own, and its repeats'
}

// roundFor is the round money moved now is for: the round in play, or the
// next one before the deal.
func (d *Debits) roundFor() int {
	if d.t.Dealt() {
		return d.t.RoundNo()
	}
	return d.t.RoundNo() + 1
}

func (d *Debits) roundID(round int) string { return d.o.cfg.RoundID(d.t.ID(), round) }

// Money completes a record's postings and calls for the operator's
// players it moves money of (see the package's doc). It returns
// *NeedDebit when a stake has no acknowledged debit yet.
func (d *Debits) Money(ctx context.Context, rec *sabot.LogAppend, ps []sabot.Posting) ([]sabot.Posting, error) {
	if !d.t.Loaded() || len(ps) == 0 && rec.Kind != sabot.LogSettle {
		return ps, nil // no money moves (and no round closes)
	}
	// The operator's moves post to the table's house account, as its
	// settlements do: no row that every table's records lock.
	house, err := d.o.cfg.Account(ctx, sabot.AccountTableHouse, d.t.ID())
	if err != nil {
		return nil, err
	}
	seq := d.t.LastSeq() + 1 // the record's: the actor is its table's only writer
	round := d.roundFor()
	if rec.RoundNo != 0 {
		round = int(rec.RoundNo)
	}
	table := d.t.ID()
	for name, uid := range d.t.Players() {
		op := PlayerID(name)
		if op == "" {
			continue
		}
		w, err := d.o.cfg.Account(ctx, sabot.AccountWallet, uid)
		if err != nil {
			return nil, err
		}
		var net money.Amount
		for _, p := range ps {
			if p.AccountID == w {
				net += p.Amount
			}
		}
		call := sabot.WalletCall{Player: op, UserID: uid, Round: d.roundID(round), Game: game(d.t.Profile()),
			Session: d.o.gameSession(ctx, uid), RoundClosed: rec.Kind == sabot.LogSettle || rec.Kind == sabot.LogVoid}
		switch {
		case net < 0: // a stake: its debit, acknowledged, counts now
			i := -1
			for j, f := range d.funded[name] {
				if f.amount == -net {
					i = j
					break
				}
			}
			if i < 0 {
				return nil, &NeedDebit{player: name, amount: -net, kind: stakeKind(rec.LogRecord)}
			}
			f := d.funded[name][i]
			rec.Counts = append(rec.Counts, f.id)
			ps = append(ps, sabot.Posting{AccountID: house, Amount: net, Memo: "debited by the operator: " + f.id},
				sabot.Posting{AccountID: w, Amount: -net, Memo: "debited by the operator: " + f.id})
		case net > 0: // money back: to the operator
			ps = append(ps, sabot.Posting{AccountID: w, Amount: -net, Memo: "to the operator"},
				sabot.Posting{AccountID: house, Amount: net, Memo: "to the operator"})
			if rb := d.unplayed(name, net, rec.Kind); rb != nil {
				// After the deal, the rollbacks that leave the player no
				// stake close his round (a box void, AR-23).
				closed := call.RoundClosed || d.t.Dealt() && len(rb) == len(d.staked[name])
				for _, r := range rb {
					c := call
					c.ID, c.Op, c.Amount, c.Reference, c.Kind, c.RoundClosed = "r-"+r.id, wallet.OpRollback, r.amount, r.id, rollbackKind(rec.LogRecord), closed
					if r.round != "" {
						c.Round = r.round // the debit's round, which the rollback undoes
					}
					rec.Calls = append(rec.Calls, c)
				}
				continue
			}
			call.ID, call.Op, call.Amount, call.Kind = callID("c", table, seq, op), wallet.OpCredit, net, creditKind(rec.Kind)
			rec.Calls = append(rec.Calls, call)
		case rec.Kind == sabot.LogSettle && len(d.staked[name]) > 0:
			// Lost: a credit of 0 closes the round at the operator's.
			call.ID, call.Op, call.Kind = callID("c", table, seq, op), wallet.OpCredit, "settle"
			rec.Calls = append(rec.Calls, call)
		}
	}
	return ps, nil
}

// unplayed returns the debits to roll back for money given back to a
// player unplayed: the stakes of a round void, or a bet withdrawn or
// returned before the deal, when they are exactly the debits of those
// stakes; nil: the money goes back as a credit.
func (d *Debits) unplayed(player string, amount money.Amount, kind string) []debitRef {
	if kind == sabot.LogSettle {
		return nil
	}
	staked := d.staked[player]
	var all money.Amount
	for _, s := range staked {
		all += s.amount
	}
	if all == amount {
		return staked
	}
	if kind == sabot.LogVoid {
		return nil
	}
	for _, s := range staked {
		if s.amount == amount {
			return []debitRef{s}
		}
	}
	return nil
}

// Written keeps track of the debits a record written counted and the
// stakes it gave back.
func (d *Debits) Written(rec *sabot.LogAppend) {
	for _, id := range rec.Counts {
		for name, fs := range d.funded {
			for i, f := range fs {
				if f.id == id {
					d.funded[name] = append(fs[:i:i], fs[i+1:]...)
					d.staked[name] = append(d.staked[name], f)
				}
			}
		}
	}
	for _, c := range rec.Calls {
		if c.Op != wallet.OpRollback {
			continue
		}
		for name, st := range d.staked {
			for i, s := range st {
				if s.id == c.Reference {
					d.staked[name] = append(st[:i:i], st[i+1:]...)
				}
			}
		}
	}
	if rec.Kind == sabot.LogSettle || rec.Kind == sabot.LogVoid {
		for name := range d.staked {
			delete(d.staked, name)
		}
	}
}

// Start asks the operator for the debit a command's stake waits for: its
// record (and call) first, then the call, answered to the actor (Post).
// The command's answer waits (parked) or it is refused (err).
func (d *Debits) Start(ctx context.Context, c Command, nd *NeedDebit) (parked bool, err error) {
	client, command := c.IDs()
	key := client + "\x00" + command
	if w, ok := d.debiting[key]; ok { // the same command again, while its debit is out
		if ch := c.Waiter(); ch != nil {
			w.waiters = append(w.waiters, ch)
		}
		return true, nil
	}
	mine := 0
	for _, w := range d.debiting {
		if w.player == nd.player {
			mine++
		}
	}
	if mine >= maxDebitsPerPlayer { // one player's commands do not take the others' share
		return false, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
			Message: fmt.Sprintf("%d of your stakes wait for the operator's wallet already: try again when they are answered", mine)}
	}
	if len(d.debiting) >= maxDebiting {
		return false, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
			Message: fmt.Sprintf("the table waits for %d answers of the operator's wallet already: try again", len(d.debiting))}
	}
	o, table := d.o, d.t.ID()
	op := PlayerID(nd.player)
	round := d.roundFor()
	uid := d.t.Players()[nd.player]
	call := sabot.WalletCall{ID: callID("d", table, client, command, nd.player, nd.amount), Op: wallet.OpDebit, Player: op,
		UserID: uid, Round: d.roundID(round), Amount: nd.amount, Kind: nd.kind, Game: game(d.t.Profile()), Session: o.gameSession(ctx, uid),
		Created: o.now()}
	rec := &sabot.LogRecord{TableID: table, Kind: sabot.LogWalletDebit, RoundNo: int64(round), Created: o.now(),
		Payload: mustJSON(tablelog.WalletDebit{Op: wallet.OpDebit, ID: call.ID, Player: nd.player, Amount: nd.amount, Command: nd.kind})}
	rec.UserID = c.UserID()
	if err := d.t.Write(ctx, &sabot.LogAppend{LogRecord: rec, Calls: []sabot.WalletCall{call}}); err != nil {
		if sabot.ErrorCode(err) == sabot.ECONFLICT {
			// The same command, for the same stake, asked before (before a
			// restart, or answered): its debit is not asked twice.
			return false, d.again(ctx, call.ID)
		}
		return false, err
	}
	w := &debitWait{c: c, id: call.ID, player: nd.player, amount: nd.amount, round: call.Round}
	if ch := c.Waiter(); ch != nil {
		w.waiters = append(w.waiters, ch)
	}
	d.debiting[key] = w
	req := o.request(call)
	o.cfg.Go(func() {
		res, err := o.debit(o.cfg.Context(), req)
		d.t.Post(func(ctx context.Context) { d.answered(ctx, key, res, err) })
	})
	return true, nil
}

// maxDebiting bounds the debits a table waits for at once, and
// maxDebitsPerPlayer those of one player.
const (
	maxDebiting        = 64
	maxDebitsPerPlayer = 4
)

// again answers a command whose debit is in the outbox already.
func (d *Debits) again(ctx context.Context, id string) error {
	calls, err := d.o.cfg.Outbox.Calls(ctx, sabot.CallQuery{TableID: d.t.ID(), ID: id})
	if err != nil || len(calls) == 0 {
		return sabot.Errorf(sabot.ECONFLICT, "refused: the debit %s of this command is in the outbox already: send the command with a new command_id", id)
	}
	if c := calls[0]; c.State == sabot.CallRefused {
		return refusal(c.Answer)
	}
	return sabot.Errorf(sabot.ECONFLICT, "refused: this command's debit (%s) was asked before and did not count: send the command with a new command_id", id)
}

func (d *Debits) hasFunded(id string) bool {
	for _, fs := range d.funded {
		for _, f := range fs {
			if f.id == id {
				return true
			}
		}
	}
	return false
}

// answered goes on with a command whose debit was answered: run again, it
// counts the debit; refused, the player reads the operator's reason and
// nothing changed; no answer in time, the debit is rolled back.
func (d *Debits) answered(ctx context.Context, key string, res *wallet.Response, callErr error) {
	w := d.debiting[key]
	if w == nil {
		return
	}
	delete(d.debiting, key)
	answer := func(r Reply) { d.t.Answer(w.waiters, r) }
	o := d.o.cfg.Outbox
	now := d.o.now()
	switch {
	case callErr != nil:
		d.t.Log().Warn("the operator's wallet did not answer a debit in time: rolled back", "debit", w.id, "err", callErr)
		if err := o.AnswerCall(ctx, w.id, sabot.CallLapsed, nil, now, time.Time{}); err != nil {
			answer(refused{err})
			return
		}
		d.rollback(ctx, w.player, debitRef{w.id, w.amount, w.round}, "no answer within "+d.o.Timeout().String())
		answer(refused{&sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
			Message: fmt.Sprintf("the operator's wallet did not answer within %s: the %s does not count (its debit is rolled back); try again", d.o.Timeout(), w.c.Name())}})
		return
	case res.Refused():
		if err := o.AnswerCall(ctx, w.id, sabot.CallRefused, mustJSON(res), now, time.Time{}); err != nil {
			answer(refused{err})
			return
		}
		answer(refused{refusal(mustJSON(res))})
		return
	}
	if err := o.AnswerCall(ctx, w.id, sabot.CallOK, mustJSON(res), now, time.Time{}); err != nil {
		answer(refused{err})
		return
	}
	d.balances[w.player] = res.Balance
	d.funded[w.player] = append(d.funded[w.player], debitRef{w.id, w.amount, w.round})
	r := d.t.Run(ctx, w.c)
	if d.hasFunded(w.id) { // not staked: the command was refused meanwhile, or asks another amount now
		d.funded[w.player] = dropDebit(d.funded[w.player], w.id)
		d.rollback(ctx, w.player, debitRef{w.id, w.amount, w.round}, "the table changed before the stake was placed")
		if r.Parked() {
			// It asks another amount now, and waits for that debit: its
			// waiters go with it.
			if nw := d.debiting[key]; nw != nil {
				for _, ch := range w.waiters {
					if !slices.Contains(nw.waiters, ch) {
						nw.waiters = append(nw.waiters, ch)
					}
				}
				return
			}
		}
		if r.Err() == nil || r.Parked() {
			r = refused{sabot.Errorf(sabot.ECONFLICT, "refused: the table changed while the operator answered; its debit is rolled back: try again")}
		}
	}
	answer(r)
}

func dropDebit(ds []debitRef, id string) []debitRef {
	for i, d := range ds {
		if d.id == id {
			return append(ds[:i:i], ds[i+1:]...)
		}
	}
	return ds
}

// rollback writes the rollback of a debit that does not count, as a
// significant event with its call, and tells the pit.
func (d *Debits) rollback(ctx context.Context, player string, r debitRef, why string) {
	round := r.round // the debit's
	if round == "" {
		round = d.roundID(d.roundFor())
	}
	table := d.t.ID()
	uid := d.t.Players()[player]
	call := sabot.WalletCall{ID: "r-" + r.id, TableID: table, Op: wallet.OpRollback, Player: PlayerID(player), UserID: uid,
		Round: round, Amount: r.amount, Reference: r.id, Kind: KindLapsed, Game: game(d.t.Profile()), Session: d.o.gameSession(ctx, uid)}
	e := tablelog.WalletRollback{Table: table, User: player, Amount: r.amount, Memo: r.id, Text: why}
	if err := d.o.event(ctx, nil, e, []sabot.WalletCall{call}); err != nil {
		d.t.Log().Error("a debit's rollback not written: it is rolled back at the table's next start", "debit", r.id, "err", err)
		return
	}
	d.o.m.rollbacks.Inc()
}

// Recover rolls back, at a table's start, every debit of its that no
// stake counted (the table stopped between the debit and the stake), and
// takes up the debits of the stakes still in play.
func (d *Debits) Recover(ctx context.Context) error {
	if !d.o.Has() || d.o.cfg.Outbox == nil {
		return nil
	}
	o, table := d.o.cfg.Outbox, d.t.ID()
	open, err := o.Calls(ctx, sabot.CallQuery{TableID: table, Uncounted: true, States: []string{sabot.CallPending, sabot.CallOK}})
	if err != nil {
		return err
	}
	rolled := map[string]bool{}
	if len(open) > 0 {
		rbs, err := o.Calls(ctx, sabot.CallQuery{TableID: table, Op: wallet.OpRollback})
		if err != nil {
			return err
		}
		for _, r := range rbs {
			rolled[r.Reference] = true
		}
	}
	for _, c := range open {
		if rolled[c.ID] {
			continue // rolled back already (the table changed before its stake; an earlier start)
		}
		if c.State == sabot.CallPending {
			if err := o.AnswerCall(ctx, c.ID, sabot.CallLapsed, nil, d.o.now(), time.Time{}); err != nil {
				return err
			}
		}
		d.rollback(ctx, Prefix+c.Player, debitRef{c.ID, c.Amount, c.Round}, "the table stopped before the stake was placed")
	}
	// The stakes in play (bets for the next round, the round dealt): their
	// debits, to roll back if the round is void.
	for _, round := range []int{d.t.RoundNo(), d.t.RoundNo() + 1} {
		if round == d.t.RoundNo() && !d.t.Dealt() {
			continue
		}
		counted, err := o.Calls(ctx, sabot.CallQuery{TableID: table, Op: wallet.OpDebit, Round: d.roundID(round), States: []string{sabot.CallOK}})
		if err != nil {
			return err
		}
		for _, c := range counted {
			if c.Counted {
				name := Prefix + c.Player
				d.staked[name] = append(d.staked[name], debitRef{c.ID, c.Amount, c.Round})
			}
		}
	}
	return nil
}
