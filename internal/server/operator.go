package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"sabot"
	"sabot/internal/wallet"
	"sabot/money"
)

// The operator's wallet (issue 14; docs/wallet.md).
//
// A player who comes from the operator's site (GET /launch) is a user named
// "@" and the operator's ID of him (a registered name has no '@'), and his
// money is the operator's: sabot never holds it. In sabot's ledger his
// wallet is a mirror that every record leaves as it found it:
//
//   - a stake of his (a bet, a double, a split, insurance, a back bet)
//     counts only on a debit the operator has acknowledged: the table asks
//     for the debit (a wallet-debit record, its call in the outbox), goes
//     on serving, and runs the command again when the answer comes; the
//     record of the stake counts the debit (LogRecord.Counts) and moves
//     the money from the house's account, which stands for the operator,
//     through his wallet to the table;
//   - money that comes back to him (a settlement, a bet withdrawn, a void)
//     goes on through his wallet to the house's account, and the same
//     record holds the call that gives it to the operator: a credit (0 for
//     a round he lost: it closes the round), or the rollback of the debits
//     of a stake returned unplayed.
//
// Every call is written to the outbox in the transaction of its record,
// then delivered: a debit by the table within its time limit, the others
// by the deliverer (deliver), again and again until the operator answers.
// A debit with no answer in time does not count and is rolled back; at a
// table's start, every debit not counted is rolled back (a crash between
// the answer and the stake).

// operatorPrefix starts an operator's player's name.
const operatorPrefix = "@"

// operatorID is the operator's ID of a player, "" for a player of sabot's
// own wallets.
func operatorID(player string) string {
	id, ok := strings.CutPrefix(player, operatorPrefix)
	if !ok {
		return ""
	}
	return id
}

// maxOperatorID bounds the operator's ID of a player.
const maxOperatorID = 64

// checkOperatorID refuses an ID that cannot name a player at a table.
func checkOperatorID(id string) error {
	if id == "" || len(id) > maxOperatorID {
		return sabot.Errorf(sabot.EINVALID, "the operator's player ID is 1 to %d characters", maxOperatorID)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' || r == ':') {
			return sabot.Errorf(sabot.EINVALID, "the operator's player ID %q: letters, digits, '.', '_', '-' and ':' only", id)
		}
	}
	return nil
}

// walletTimeout is a debit's time limit.
func (s *Server) walletTimeout() time.Duration {
	if s.WalletTimeout > 0 {
		return s.WalletTimeout
	}
	return wallet.DefaultTimeout
}

// outbox is the store's sabot.Outbox (checked at Open when there is a
// wallet).
func (s *Server) outbox() sabot.Outbox { o, _ := s.Store.(sabot.Outbox); return o }

// debitRef is a debit acknowledged: its transaction ID, amount, and the
// round it is for (its rollback's).
type debitRef struct {
	id     string
	amount money.Amount
	round  string
}

// needDebit is what write returns for a record that stakes an operator's
// player's money before the operator has been debited for it.
type needDebit struct {
	player string
	amount money.Amount
	kind   string // what the stake is: bet, double, split, insurance…
}

func (e *needDebit) Error() string {
	return fmt.Sprintf("%s's stake of %s waits for the operator's debit", e.player, e.amount)
}

// debitWait is a command waiting for its debit's answer.
type debitWait struct {
	c       *command
	id      string
	player  string
	amount  money.Amount
	round   string
	waiters []chan reply // the command's own, and its repeats'
}

// callID is a transaction ID: a prefix and the SHA-256 of what makes the
// call unique, short enough for any operator.
func callID(prefix string, parts ...any) string {
	h := sha256.Sum256([]byte(fmt.Sprint(parts...)))
	return prefix + "-" + hex.EncodeToString(h[:16])
}

// roundFor is the round money moved now is for: the round in play, or the
// next one before the deal.
func (a *actor) roundFor() int {
	if a.dealt {
		return a.t.RoundNo()
	}
	return a.t.RoundNo() + 1
}

// operatorMoney completes a record's postings and calls for the
// operator's players it moves money of (see the top of the file). It
// returns *needDebit when a stake has no acknowledged debit yet.
func (a *actor) operatorMoney(ctx context.Context, rec *sabot.LogRecord, ps []sabot.Posting) ([]sabot.Posting, error) {
	if a.t == nil || len(ps) == 0 && rec.Kind != sabot.LogSettle {
		return ps, nil // no money moves (and no round closes)
	}
	house, err := a.s.account(ctx, sabot.AccountHouse, 0)
	if err != nil {
		return nil, err
	}
	seq := a.lastSeq + 1 // the record's: this actor is its table's only writer
	round := a.roundFor()
	if rec.RoundNo != 0 {
		round = int(rec.RoundNo)
	}
	for name, uid := range a.players {
		op := operatorID(name)
		if op == "" {
			continue
		}
		w, err := a.s.account(ctx, sabot.AccountWallet, uid)
		if err != nil {
			return nil, err
		}
		var net money.Amount
		for _, p := range ps {
			if p.AccountID == w {
				net += p.Amount
			}
		}
		call := sabot.WalletCall{Player: op, UserID: uid, Round: RoundID(a.cfg.ID, round), Game: a.game(),
			Session: a.s.gameSession(ctx, uid), RoundClosed: rec.Kind == sabot.LogSettle || rec.Kind == sabot.LogVoid}
		switch {
		case net < 0: // a stake: its debit, acknowledged, counts now
			i := -1
			for j, d := range a.funded[name] {
				if d.amount == -net {
					i = j
					break
				}
			}
			if i < 0 {
				return nil, &needDebit{player: name, amount: -net, kind: stakeKind(rec)}
			}
			d := a.funded[name][i]
			rec.Counts = append(rec.Counts, d.id)
			ps = append(ps, sabot.Posting{AccountID: house, Amount: net, Memo: "debited by the operator: " + d.id},
				sabot.Posting{AccountID: w, Amount: -net, Memo: "debited by the operator: " + d.id})
		case net > 0: // money back: to the operator
			ps = append(ps, sabot.Posting{AccountID: w, Amount: -net, Memo: "to the operator"},
				sabot.Posting{AccountID: house, Amount: net, Memo: "to the operator"})
			if rb := a.unplayed(name, net, rec.Kind); rb != nil {
				// After the deal, the rollbacks that leave the player no
				// stake close his round (a box void, AR-23).
				closed := call.RoundClosed || a.dealt && len(rb) == len(a.staked[name])
				for _, d := range rb {
					c := call
					c.ID, c.Op, c.Amount, c.Reference, c.Kind, c.RoundClosed = "r-"+d.id, wallet.OpRollback, d.amount, d.id, rollbackKind(rec), closed
					if d.round != "" {
						c.Round = d.round // the debit's round, which the rollback undoes
					}
					rec.Calls = append(rec.Calls, c)
				}
				continue
			}
			call.ID, call.Op, call.Amount, call.Kind = callID("c", a.cfg.ID, seq, op), wallet.OpCredit, net, creditKind(rec.Kind)
			rec.Calls = append(rec.Calls, call)
		case rec.Kind == sabot.LogSettle && len(a.staked[name]) > 0:
			// Lost: a credit of 0 closes the round at the operator's.
			call.ID, call.Op, call.Kind = callID("c", a.cfg.ID, seq, op), wallet.OpCredit, "settle"
			rec.Calls = append(rec.Calls, call)
		}
	}
	return ps, nil
}

// The kinds of a debit, as docs/wallet.yaml lists them (DebitKinds).
const (
	KindBet       = "bet"       // a bet or a back bet, before the deal
	KindDouble    = "double"    // a double (VE-11, VE-19: a back bettor's match too)
	KindSplit     = "split"     // a split (VE-12: a back bettor's match too)
	KindInsurance = "insurance" // insurance (and even money's stake)
	KindChallenge = "challenge" // the Desafío (AR-10)
)

// The kinds of a rollback (RollbackKinds).
const (
	KindLapsed    = "lapsed"    // the debit did not count: no answer in time, the table changed or stopped before the stake
	KindWithdrawn = "withdrawn" // the player withdrew the bet before the deal
	KindReturned  = "returned"  // the table gave the bet back before the deal (the bank could not cover it, the player left…)
	KindVoid      = "void"      // the round, or the box, is void (AR-23): its stakes go back
)

// DebitKinds, CreditKinds and RollbackKinds are the kinds of each call
// (docs/wallet.yaml's enums).
var (
	DebitKinds    = []string{KindBet, KindDouble, KindSplit, KindInsurance, KindChallenge}
	CreditKinds   = []string{"settle", "return"}
	RollbackKinds = []string{KindLapsed, KindWithdrawn, KindReturned, KindVoid}
)

// stakeKind says what a record's stake is, for the operator: a bet, or the
// decision that stakes (double, split, insurance, the challenge).
func stakeKind(rec *sabot.LogRecord) string {
	if rec.Kind == sabot.LogAction || rec.Kind == sabot.LogTimeout {
		var p actionPayload
		if json.Unmarshal(rec.Payload, &p) == nil {
			switch p.Action.Kind {
			case "double", "split", "challenge":
				return p.Action.Kind
			case "insure", "even-money":
				return KindInsurance
			}
		}
	}
	return KindBet
}

// rollbackKind says why a record gives stakes back unplayed.
func rollbackKind(rec *sabot.LogRecord) string {
	switch rec.Kind {
	case sabot.LogBetWithdraw:
		var p betPayload
		if json.Unmarshal(rec.Payload, &p) == nil && p.Reason != "" {
			return KindReturned // the server withdrew it
		}
		return KindWithdrawn
	case sabot.LogVoid, sabot.LogAction, sabot.LogTimeout:
		return KindVoid
	}
	return KindReturned
}

// game is the table's game, as the operator's calls name it.
func (a *actor) game() string { return "blackjack-" + a.cfg.Profile }

func creditKind(kind string) string {
	if kind == sabot.LogSettle {
		return "settle"
	}
	return "return"
}

// unplayed returns the debits to roll back for money given back to a
// player unplayed: the stakes of a round void, or a bet withdrawn or
// returned before the deal, when they are exactly the debits of those
// stakes; nil: the money goes back as a credit.
func (a *actor) unplayed(player string, amount money.Amount, kind string) []debitRef {
	if kind == sabot.LogSettle {
		return nil
	}
	staked := a.staked[player]
	var all money.Amount
	for _, d := range staked {
		all += d.amount
	}
	if all == amount {
		return staked
	}
	if kind == sabot.LogVoid {
		return nil
	}
	for _, d := range staked {
		if d.amount == amount {
			return []debitRef{d}
		}
	}
	return nil
}

// operatorWritten keeps track of the debits a record written counted and
// the stakes it gave back.
func (a *actor) operatorWritten(rec *sabot.LogRecord) {
	for _, id := range rec.Counts {
		for name, fs := range a.funded {
			for i, d := range fs {
				if d.id == id {
					a.funded[name] = append(fs[:i:i], fs[i+1:]...)
					a.staked[name] = append(a.staked[name], d)
				}
			}
		}
	}
	for _, c := range rec.Calls {
		if c.Op != wallet.OpRollback {
			continue
		}
		for name, st := range a.staked {
			for i, d := range st {
				if d.id == c.Reference {
					a.staked[name] = append(st[:i:i], st[i+1:]...)
				}
			}
		}
	}
	if rec.Kind == sabot.LogSettle || rec.Kind == sabot.LogVoid {
		for name := range a.staked {
			delete(a.staked, name)
		}
	}
}

// startDebit asks the operator for the debit a command's stake waits for:
// its record (and call) first, then the call, answered to the actor
// (debitAnswered). The command's answer waits.
func (a *actor) startDebit(ctx context.Context, c *command, nd *needDebit) reply {
	key := c.clientID + "\x00" + c.commandID
	if w, ok := a.debiting[key]; ok { // the same command again, while its debit is out
		if c.reply != nil {
			w.waiters = append(w.waiters, c.reply)
		}
		return reply{parked: true}
	}
	mine := 0
	for _, w := range a.debiting {
		if w.player == nd.player {
			mine++
		}
	}
	if mine >= maxDebitsPerPlayer { // one player's commands do not take the others' share
		return reply{err: &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
			Message: fmt.Sprintf("%d of your stakes wait for the operator's wallet already: try again when they are answered", mine)}}
	}
	if len(a.debiting) >= maxDebiting {
		return reply{err: &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
			Message: fmt.Sprintf("the table waits for %d answers of the operator's wallet already: try again", len(a.debiting))}}
	}
	op := operatorID(nd.player)
	round := a.roundFor()
	uid := a.players[nd.player]
	call := sabot.WalletCall{ID: callID("d", a.cfg.ID, c.clientID, c.commandID, nd.player, nd.amount), Op: wallet.OpDebit, Player: op,
		UserID: uid, Round: RoundID(a.cfg.ID, round), Amount: nd.amount, Kind: nd.kind, Game: a.game(), Session: a.s.gameSession(ctx, uid),
		Created: a.s.now()}
	rec := &sabot.LogRecord{TableID: a.cfg.ID, Kind: sabot.LogWalletDebit, RoundNo: int64(round), Created: a.s.now(),
		Payload: mustJSON(walletPayload{Op: wallet.OpDebit, ID: call.ID, Player: nd.player, Amount: nd.amount, Command: nd.kind}),
		Calls:   []sabot.WalletCall{call}}
	if c.user != nil {
		rec.UserID = c.user.ID
	}
	if _, err := a.write(ctx, rec, nil); err != nil {
		if sabot.ErrorCode(err) == sabot.ECONFLICT {
			// The same command, for the same stake, asked before (before a
			// restart, or answered): its debit is not asked twice.
			return a.debitAgain(ctx, c, call.ID)
		}
		return reply{err: err}
	}
	a.track(rec)
	w := &debitWait{c: c, id: call.ID, player: nd.player, amount: nd.amount, round: call.Round}
	if c.reply != nil {
		w.waiters = append(w.waiters, c.reply)
	}
	a.debiting[key] = w
	req := a.s.walletRequest(call)
	a.s.wg.Go(func() {
		res, err := a.s.debit(a.s.ctx, req)
		a.post(func(a *actor) reply {
			a.debitAnswered(context.WithoutCancel(a.s.ctx), key, res, err)
			return reply{}
		})
	})
	return reply{parked: true}
}

// maxDebiting bounds the debits a table waits for at once, and
// maxDebitsPerPlayer those of one player.
const (
	maxDebiting        = 64
	maxDebitsPerPlayer = 4
)

// debitAgain answers a command whose debit is in the outbox already.
func (a *actor) debitAgain(ctx context.Context, c *command, id string) reply {
	calls, err := a.s.outbox().Calls(ctx, sabot.CallQuery{TableID: a.cfg.ID, ID: id})
	if err != nil || len(calls) == 0 {
		return reply{err: sabot.Errorf(sabot.ECONFLICT, "refused: the debit %s of this command is in the outbox already: send the command with a new command_id", id)}
	}
	if d := calls[0]; d.State == sabot.CallRefused {
		return reply{err: operatorRefusal(d.Answer)}
	}
	return reply{err: sabot.Errorf(sabot.ECONFLICT, "refused: this command's debit (%s) was asked before and did not count: send the command with a new command_id", id)}
}

func (a *actor) hasFunded(id string) bool {
	for _, fs := range a.funded {
		for _, d := range fs {
			if d.id == id {
				return true
			}
		}
	}
	return false
}

// post sends a function to the actor's loop, unless it has stopped.
func (a *actor) post(fn func(a *actor) reply) {
	select {
	case a.cmds <- &command{inside: fn}:
	case <-a.done:
	}
}

// debitAnswered goes on with a command whose debit was answered: run
// again, it counts the debit; refused, the player reads the operator's
// reason and nothing changed; no answer in time, the debit is rolled back.
func (a *actor) debitAnswered(ctx context.Context, key string, res *wallet.Response, callErr error) {
	w := a.debiting[key]
	if w == nil {
		return
	}
	delete(a.debiting, key)
	answer := func(r reply) {
		for _, ch := range w.waiters {
			select {
			case ch <- r: // buffered: never blocks the table
			default:
			}
		}
	}
	o := a.s.outbox()
	now := a.s.now()
	switch {
	case callErr != nil:
		a.log.Warn("the operator's wallet did not answer a debit in time: rolled back", "debit", w.id, "err", callErr)
		if err := o.AnswerCall(ctx, w.id, sabot.CallLapsed, nil, now, time.Time{}); err != nil {
			answer(reply{err: err})
			return
		}
		a.rollback(ctx, w.player, debitRef{w.id, w.amount, w.round}, "no answer within "+a.s.walletTimeout().String())
		answer(reply{err: &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second,
			Message: fmt.Sprintf("the operator's wallet did not answer within %s: the %s does not count (its debit is rolled back); try again", a.s.walletTimeout(), w.c.cmd.name)}})
		return
	case res.Refused():
		if err := o.AnswerCall(ctx, w.id, sabot.CallRefused, mustJSON(res), now, time.Time{}); err != nil {
			answer(reply{err: err})
			return
		}
		answer(reply{err: operatorRefusal(mustJSON(res))})
		return
	}
	if err := o.AnswerCall(ctx, w.id, sabot.CallOK, mustJSON(res), now, time.Time{}); err != nil {
		answer(reply{err: err})
		return
	}
	a.balances[w.player] = money.Amount(res.Balance)
	a.funded[w.player] = append(a.funded[w.player], debitRef{w.id, w.amount, w.round})
	r := a.handle(ctx, w.c)
	if a.hasFunded(w.id) { // not staked: the command was refused meanwhile, or asks another amount now
		a.funded[w.player] = dropDebit(a.funded[w.player], w.id)
		a.rollback(ctx, w.player, debitRef{w.id, w.amount, w.round}, "the table changed before the stake was placed")
		if r.parked {
			// It asks another amount now, and waits for that debit: its
			// waiters go with it.
			if nw := a.debiting[key]; nw != nil {
				for _, ch := range w.waiters {
					if !slices.Contains(nw.waiters, ch) {
						nw.waiters = append(nw.waiters, ch)
					}
				}
				return
			}
		}
		if r.err == nil || r.parked {
			r = reply{err: sabot.Errorf(sabot.ECONFLICT, "refused: the table changed while the operator answered; its debit is rolled back: try again")}
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
func (a *actor) rollback(ctx context.Context, player string, d debitRef, why string) {
	round := d.round // the debit's
	if round == "" {
		round = RoundID(a.cfg.ID, a.roundFor())
	}
	uid := a.players[player]
	call := sabot.WalletCall{ID: "r-" + d.id, TableID: a.cfg.ID, Op: wallet.OpRollback, Player: operatorID(player), UserID: uid,
		Round: round, Amount: d.amount, Reference: d.id, Kind: KindLapsed, Game: a.game(), Session: a.s.gameSession(ctx, uid)}
	p := adminPayload{Event: "wallet-rollback", Table: a.cfg.ID, User: player, Amount: d.amount, Memo: d.id, Text: why}
	if _, _, err := a.s.eventCalls(ctx, nil, p, []sabot.WalletCall{call}); err != nil {
		a.log.Error("a debit's rollback not written: it is rolled back at the table's next start", "debit", d.id, "err", err)
		return
	}
	a.s.metrics.walletRollbacks.Inc()
}

// recoverDebits rolls back, at a table's start, every debit of its that no
// stake counted (the table stopped between the debit and the stake), and
// takes up the debits of the stakes still in play.
func (a *actor) recoverDebits(ctx context.Context) error {
	o := a.s.outbox()
	if a.s.Wallet == nil || o == nil {
		return nil
	}
	open, err := o.Calls(ctx, sabot.CallQuery{TableID: a.cfg.ID, Uncounted: true, States: []string{sabot.CallPending, sabot.CallOK}})
	if err != nil {
		return err
	}
	rolled := map[string]bool{}
	if len(open) > 0 {
		rbs, err := o.Calls(ctx, sabot.CallQuery{TableID: a.cfg.ID, Op: wallet.OpRollback})
		if err != nil {
			return err
		}
		for _, r := range rbs {
			rolled[r.Reference] = true
		}
	}
	for _, d := range open {
		if rolled[d.ID] {
			continue // rolled back already (the table changed before its stake; an earlier start)
		}
		if d.State == sabot.CallPending {
			if err := o.AnswerCall(ctx, d.ID, sabot.CallLapsed, nil, a.s.now(), time.Time{}); err != nil {
				return err
			}
		}
		a.rollback(ctx, operatorPrefix+d.Player, debitRef{d.ID, d.Amount, d.Round}, "the table stopped before the stake was placed")
	}
	// The stakes in play (bets for the next round, the round dealt): their
	// debits, to roll back if the round is void.
	for _, round := range []int{a.t.RoundNo(), a.t.RoundNo() + 1} {
		if round == a.t.RoundNo() && !a.dealt {
			continue
		}
		counted, err := o.Calls(ctx, sabot.CallQuery{TableID: a.cfg.ID, Op: wallet.OpDebit, Round: RoundID(a.cfg.ID, round), States: []string{sabot.CallOK}})
		if err != nil {
			return err
		}
		for _, d := range counted {
			if d.Counted {
				name := operatorPrefix + d.Player
				a.staked[name] = append(a.staked[name], debitRef{d.ID, d.Amount, d.Round})
			}
		}
	}
	return nil
}

// operatorRefusal is the player's refusal for the operator's: its reason
// and message, as the operator gave them.
func operatorRefusal(answer json.RawMessage) error {
	var res wallet.Response
	json.Unmarshal(answer, &res)
	code := sabot.EFORBIDDEN
	if res.Reason == wallet.ReasonInsufficientFunds {
		code = sabot.EINSUFFICIENT
	}
	msg := res.Message
	if msg == "" {
		msg = strings.ReplaceAll(res.Reason, "_", " ")
	}
	return sabot.Errorf(code, "refused by the operator's wallet: %s", msg).
		WithReason("operator_refused", map[string]any{"reason": res.Reason, "message": msg})
}

// walletRequest is a call as the operator receives it.
func (s *Server) walletRequest(c sabot.WalletCall) wallet.Request {
	table := c.TableID
	if t, _, err := ParseRoundID(c.Round); err == nil {
		table = t
	}
	at := c.Created
	if at.IsZero() {
		at = s.now()
	}
	r := wallet.Request{TransactionID: c.ID, Player: c.Player, Amount: int64(c.Amount), Currency: s.Currency,
		Round: c.Round, Table: table, Kind: c.Kind, Reference: c.Reference, Game: c.Game, Session: c.Session,
		Timestamp: at.UTC().Format(time.RFC3339Nano), RoundClosed: c.RoundClosed, RetryOf: c.RetryOf, Attempt: max(c.Attempts, 1)}
	if c.Op == wallet.OpDebit {
		// sabot waits for a debit's answer until then; after, the stake
		// does not count and the debit is rolled back.
		r.Expires = at.Add(s.walletTimeout()).UTC().Format(time.RFC3339Nano)
	}
	return r
}

// launchTokenHash is what sabot keeps of an operator's launch token.
func launchTokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// launchSession is the transaction ID of a launch's authenticate, and the
// game session it opens: every later call of the player's carries it.
func launchSession(hash string) string { return "a-" + hash[:32] }

// useLaunchToken records a launch token's use: a token used before is
// refused (an operator's token opens one game session).
func (s *Server) useLaunchToken(ctx context.Context, hash string, uid int64) error {
	session := launchSession(hash)
	if err := s.outbox().UseLaunchToken(ctx, hash, uid, session, s.now()); err != nil {
		return err
	}
	s.opSession.Store(uid, session)
	return nil
}

// gameSession is an operator's player's game session: the latest launch's
// ("" if he has none, or the store does not answer). A node keeps what it
// read, and what its own launches opened: a player launched again through
// another node keeps his earlier session in this node's calls until it
// restarts.
func (s *Server) gameSession(ctx context.Context, uid int64) string {
	if v, ok := s.opSession.Load(uid); ok {
		return v.(string)
	}
	session, err := s.outbox().LaunchSession(ctx, uid)
	if err != nil {
		return ""
	}
	s.opSession.Store(uid, session) // "" too: a player launched before sabot kept sessions is not read again
	return session
}

// debit sends a debit until it is answered or its time limit is over.
func (s *Server) debit(ctx context.Context, req wallet.Request) (*wallet.Response, error) {
	return s.callWithin(ctx, wallet.OpDebit, req)
}

// callWithin sends a call, again with the same transaction ID while it has
// no answer, until the time limit is over.
func (s *Server) callWithin(ctx context.Context, op string, req wallet.Request) (*wallet.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, s.walletTimeout())
	defer cancel()
	wait := 50 * time.Millisecond
	for try := 1; ; try++ {
		req.Attempt = try
		res, err := s.Wallet.Call(ctx, op, req)
		if err == nil {
			result := sabot.CallOK
			if res.Refused() {
				result = sabot.CallRefused
			}
			s.metrics.walletCalls.WithLabelValues(op, result).Inc()
			return res, nil
		}
		s.metrics.walletCalls.WithLabelValues(op, "no-answer").Inc()
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// walletPayload is a wallet-debit record's payload.
type walletPayload struct {
	Op      string       `json:"op"`
	ID      string       `json:"id"`
	Player  string       `json:"player"`
	Amount  money.Amount `json:"amount"`
	Command string       `json:"command,omitempty"`
}

// Money owed (issue 25, item 9; docs/wallet.md). A credit or rollback the
// operator refused is money sabot owes the player (a win, or a stake to
// give back): it stays an open item for the pit (GET
// /api/admin/wallet/owed, the event wallet-refused) until a call that
// sends it again is acknowledged (wallet-paid) or the pit resolves it by
// hand with a reason (wallet-resolved). The policy: sent again under a new
// transaction ID (its own and "-2", "-3"…, retry_of naming it) after
// WalletRetryRefused (a minute), each wait doubling up to an hour, for
// WalletRetries tries in all (10: about five hours); then only the pit.

// The policy's defaults.
const (
	DefaultRetryRefused = time.Minute
	DefaultRetries      = 10
	retryRefusedMost    = time.Hour
)

// retryRefused is the wait before the try after the n-th (0: no more by
// sabot).
func (s *Server) retryRefused(n int) time.Duration {
	first, tries := durationOr(s.WalletRetryRefused, DefaultRetryRefused), s.WalletRetries
	if tries == 0 {
		tries = DefaultRetries
	}
	if first < 0 || tries < 0 || n >= tries {
		return 0
	}
	d := first
	for i := 1; i < n && d < retryRefusedMost; i++ {
		d *= 2
	}
	return min(d, retryRefusedMost)
}

// owe records a credit or rollback refused as money owed: its next try by
// the policy, and the event that tells the pit.
func (s *Server) owe(ctx context.Context, c *sabot.WalletCall, res *wallet.Response) {
	root, try := c.ID, 1
	if c.RetryOf != "" {
		root = c.RetryOf
		try, _ = strconv.Atoi(strings.TrimPrefix(c.ID, c.RetryOf+"-"))
	}
	next := "no more tries by sabot: the pit resolves it (POST /api/admin/wallet/owed/" + root + "/resolve)"
	if d := s.retryRefused(try); d > 0 {
		at := s.now().Add(d)
		if err := s.outbox().ScheduleRetry(ctx, c.ID, at); err != nil {
			s.logger().Error("money owed: its next try not written", "call", c.ID, "err", err)
		}
		next = fmt.Sprintf("sent again at %s (try %d)", at.UTC().Format(time.RFC3339), try+1)
	}
	s.event(ctx, nil, adminPayload{Event: "wallet-refused", Table: c.TableID, User: operatorPrefix + c.Player, Amount: c.Amount, Memo: root,
		Text: fmt.Sprintf("%s %s refused: %s %s; %s owed to %s; %s", c.Op, c.ID, res.Reason, res.Message, c.Amount, c.Player, next)}, nil, "")
}

// OwedView is an item of money owed, as the pit sees it.
type OwedView struct {
	ID        string       `json:"id"` // the refused call's transaction ID
	Op        string       `json:"op"` // credit, rollback
	Player    string       `json:"player"`
	Table     int64        `json:"table"`
	Round     string       `json:"round"`
	Kind      string       `json:"kind"`
	Reference string       `json:"reference,omitempty"` // rollback: the debit
	Amount    money.Amount `json:"amount"`
	Reason    string       `json:"reason"`
	Message   string       `json:"message,omitempty"`
	Refused   time.Time    `json:"refused"`
	Retries   int          `json:"retries"`              // times sent again
	NextRetry *time.Time   `json:"next_retry,omitempty"` // none: no more tries by sabot
}

// Owed lists the money owed.
func (s *Server) Owed(ctx context.Context) ([]OwedView, error) {
	if s.Wallet == nil {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "this server has no operator's wallet")
	}
	calls, err := s.outbox().Owed(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]OwedView, 0, len(calls))
	for _, c := range calls {
		var res wallet.Response
		json.Unmarshal(c.Answer, &res)
		v := OwedView{ID: c.ID, Op: c.Op, Player: operatorPrefix + c.Player, Table: c.TableID, Round: c.Round, Kind: c.Kind,
			Reference: c.Reference, Amount: c.Amount, Reason: res.Reason, Message: res.Message, Refused: c.Answered, Retries: c.Retries}
		if !c.NextRetry.IsZero() {
			v.NextRetry = &c.NextRetry
		}
		out = append(out, v)
	}
	return out, nil
}

// ResolveRequest resolves money owed by hand.
type ResolveRequest struct {
	Reason string `json:"reason"` // why, as the pit will read it: paid by the operator's own tools, waived…
}

// maxResolveReason bounds a resolution's reason.
const maxResolveReason = 500

// ResolveOwed closes an item of money owed by hand, with the reason, as a
// significant event.
func (s *Server) ResolveOwed(ctx context.Context, u *sabot.User, id string, req ResolveRequest) error {
	if s.Wallet == nil {
		return sabot.Errorf(sabot.ENOTFOUND, "this server has no operator's wallet")
	}
	reason := strings.TrimSpace(req.Reason)
	if reason == "" || len(reason) > maxResolveReason {
		return sabot.Errorf(sabot.EINVALID, "resolving money owed by hand needs a reason (1 to %d bytes)", maxResolveReason)
	}
	owed, err := s.outbox().Owed(ctx)
	if err != nil {
		return err
	}
	var c *sabot.WalletCall
	for _, o := range owed {
		if o.ID == id {
			c = o
		}
	}
	if c == nil {
		return sabot.Errorf(sabot.ENOTFOUND, "no money owed under %q: it was paid, resolved, or never refused", id)
	}
	if err := s.outbox().ResolveOwed(ctx, id, reason, u.Name, s.now()); err != nil {
		return err
	}
	_, _, err = s.event(ctx, u, adminPayload{Event: "wallet-resolved", Table: c.TableID, User: operatorPrefix + c.Player, Amount: c.Amount,
		Memo: id, By: u.Name, Text: fmt.Sprintf("%s %s of %s owed to %s resolved by %s: %s", c.Op, id, c.Amount, c.Player, u.Name, reason)}, nil, "")
	return err
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
	writeJSON(w, http.StatusOK, CommandResult{OK: true})
}
