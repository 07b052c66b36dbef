// Package operator is the operator's wallet (docs/wallet.md):
// the debits and credits a table asks of an operator's wallet, the
// delivery of credits and rollbacks from the store's outbox, money owed,
// and the launch from the operator's site. The table server holds one
// Operator; each table actor holds its Debits.
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
//     record of the stake counts the debit (LogAppend.Counts) and moves
//     the money from the house's account, which stands for the operator
//     (the table's: sabot.AccountTableHouse, no row every table locks),
//     through his wallet to the table;
//   - money that comes back to him (a settlement, a bet withdrawn, a void)
//     goes on through his wallet to the table's house account, and the same
//     record holds the call that gives it to the operator: a credit (0 for
//     a round he lost: it closes the round), or the rollback of the debits
//     of a stake returned unplayed.
//
// Every call is written to the outbox in the transaction of its record,
// then delivered: a debit by the table within its time limit, the others
// by the deliverer (Deliver), again and again until the operator answers.
// A debit with no answer in time does not count and is rolled back; at a
// table's start, every debit not counted is rolled back (a crash between
// the answer and the stake).
package operator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wallet"
)

// Config is what the operator's wallet takes from the server.
type Config struct {
	// Wallet is the operator's wallet (nil: the server has none, and
	// Owed, ResolveOwed and Launch say so).
	Wallet *wallet.Client
	// Outbox is the store's outbox (checked at the server's start when
	// there is a wallet).
	Outbox   sabot.Outbox
	Currency string
	// Timeout is a debit's time limit (0: wallet.DefaultTimeout).
	Timeout time.Duration
	// UndeliveredAfter is when an unanswered credit or rollback becomes a
	// significant event (0: DefaultUndeliveredAfter).
	UndeliveredAfter time.Duration
	// RetryMost caps the wait between tries of an unanswered credit or
	// rollback (0: 30 s).
	RetryMost time.Duration
	// RetryRefused and Retries are the policy of money owed (0:
	// DefaultRetryRefused, DefaultRetries; negative: only the pit).
	RetryRefused time.Duration
	Retries      int

	Metrics *Metrics
	// Context is the server's: a debit's call runs under it, and Go runs
	// it among the server's goroutines (stopped together).
	Context func() context.Context
	Go      func(func())
	Now     func() time.Time
	Logger  func() *slog.Logger
	// Account is the ID of an account of the ledger.
	Account func(ctx context.Context, kind string, owner int64) (int64, error)
	// Event writes a significant event, with the calls to the wallet it
	// causes in its transaction; u is who did it (nil: the server).
	Event func(ctx context.Context, u *sabot.User, e tablelog.Event, calls []sabot.WalletCall) error
	// RoundID names a round; ParseRoundID reads the name.
	RoundID      func(table int64, round int) string
	ParseRoundID func(id string) (table int64, round int, err error)
}

// Operator is the operator's wallet of one server.
type Operator struct {
	cfg Config
	m   *Metrics
	// balance: each operator's player's balance as the operator last
	// said it (user ID → money.Amount; launch.go).
	balance sync.Map
	// session: each operator's player's game session (user ID → string).
	session sync.Map
}

// New returns the operator's wallet of a configuration.
func New(cfg Config) *Operator {
	m := cfg.Metrics
	if m == nil {
		m = NewMetrics()
	}
	return &Operator{cfg: cfg, m: m}
}

// Has says whether the server has an operator's wallet.
func (o *Operator) Has() bool { return o != nil && o.cfg.Wallet != nil }

func (o *Operator) now() time.Time {
	if o.cfg.Now != nil {
		return o.cfg.Now()
	}
	return time.Now()
}

func (o *Operator) logger() *slog.Logger {
	if o.cfg.Logger != nil {
		return o.cfg.Logger()
	}
	return slog.New(slog.DiscardHandler)
}

func (o *Operator) event(ctx context.Context, u *sabot.User, e tablelog.Event, calls []sabot.WalletCall) error {
	return o.cfg.Event(ctx, u, e, calls)
}

// Prefix starts an operator's player's name.
const Prefix = "@"

// PlayerID is the operator's ID of a player, "" for a player of sabot's
// own wallets.
func PlayerID(player string) string {
	id, ok := strings.CutPrefix(player, Prefix)
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

// Timeout is a debit's time limit.
func (o *Operator) Timeout() time.Duration {
	if o.cfg.Timeout > 0 {
		return o.cfg.Timeout
	}
	return wallet.DefaultTimeout
}

// callID is a transaction ID: a prefix and the SHA-256 of what makes the
// call unique, short enough for any operator.
func callID(prefix string, parts ...any) string {
	h := sha256.Sum256([]byte(fmt.Sprint(parts...)))
	return prefix + "-" + hex.EncodeToString(h[:16])
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
		var p tablelog.Decision
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
		var p tablelog.Bet
		if json.Unmarshal(rec.Payload, &p) == nil && p.Reason != "" {
			return KindReturned // the server withdrew it
		}
		return KindWithdrawn
	case sabot.LogVoid, sabot.LogAction, sabot.LogTimeout:
		return KindVoid
	}
	return KindReturned
}

// game is a table's game, as the operator's calls name it.
func game(profile string) string { return "blackjack-" + profile }

func creditKind(kind string) string {
	if kind == sabot.LogSettle {
		return "settle"
	}
	return "return"
}

// refusal is the player's refusal for the operator's: its reason and
// message, as the operator gave them.
func refusal(answer json.RawMessage) error {
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

// request is a call as the operator receives it.
func (o *Operator) request(c sabot.WalletCall) wallet.Request {
	table := c.TableID
	if t, _, err := o.cfg.ParseRoundID(c.Round); err == nil {
		table = t
	}
	at := c.Created
	if at.IsZero() {
		at = o.now()
	}
	r := wallet.Request{TransactionID: c.ID, Player: c.Player, Amount: c.Amount, Currency: o.cfg.Currency,
		Round: c.Round, Table: table, Kind: c.Kind, Reference: c.Reference, Game: c.Game, Session: c.Session,
		Timestamp: at.UTC().Format(time.RFC3339Nano), RoundClosed: c.RoundClosed, RetryOf: c.RetryOf, Attempt: max(c.Attempts, 1)}
	if c.Op == wallet.OpDebit {
		// sabot waits for a debit's answer until then; after, the stake
		// does not count and the debit is rolled back.
		r.Expires = at.Add(o.Timeout()).UTC().Format(time.RFC3339Nano)
	}
	return r
}

// gameSession is an operator's player's game session: the latest launch's
// ("" if he has none, or the store does not answer). A node keeps what it
// read, and what its own launches opened: a player launched again through
// another node keeps his earlier session in this node's calls until it
// restarts.
func (o *Operator) gameSession(ctx context.Context, uid int64) string {
	if v, ok := o.session.Load(uid); ok {
		return v.(string)
	}
	session, err := o.cfg.Outbox.LaunchSession(ctx, uid)
	if err != nil {
		return ""
	}
	o.session.Store(uid, session) // "" too: a player launched before sabot kept sessions is not read again
	return session
}

// debit sends a debit until it is answered or its time limit is over.
func (o *Operator) debit(ctx context.Context, req wallet.Request) (*wallet.Response, error) {
	return o.callWithin(ctx, wallet.OpDebit, req)
}

// callWithin sends a call, again with the same transaction ID while it has
// no answer, until the time limit is over.
func (o *Operator) callWithin(ctx context.Context, op string, req wallet.Request) (*wallet.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout())
	defer cancel()
	wait := 50 * time.Millisecond
	for try := 1; ; try++ {
		req.Attempt = try
		res, err := o.cfg.Wallet.Call(ctx, op, req)
		if err == nil {
			result := sabot.CallOK
			if res.Refused() {
				result = sabot.CallRefused
			}
			o.m.calls.WithLabelValues(op, result).Inc()
			return res, nil
		}
		o.m.calls.WithLabelValues(op, "no-answer").Inc()
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// durationOr is d, or def for 0; a negative d turns it off (0).
func durationOr(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}
