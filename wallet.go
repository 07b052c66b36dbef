package sabot

import (
	"context"
	"encoding/json"
	"sabot/money"
	"time"
)

// The states of a call to the operator's wallet (WalletCall.State).
const (
	CallPending = "pending" // not answered yet: sent, or to be sent again
	CallOK      = "ok"      // acknowledged
	CallRefused = "refused" // refused by the operator, with its reason
	// CallLapsed is a debit with no answer within its time limit: it does
	// not count, and a rollback of it is in the outbox. It is never sent
	// again.
	CallLapsed = "lapsed"
)

// WalletCall is a call to the operator's wallet (docs/wallet.md)
// as the outbox keeps it: written with the log record that causes it, then
// delivered, again and again until the operator answers.
type WalletCall struct {
	ID        string // the transaction ID: unique; the operator acts on it once
	TableID   int64
	Seq       int64  // the log record that wrote it
	Op        string // debit, credit, rollback (wallet.OpDebit…)
	Player    string // the operator's ID of the player
	UserID    int64
	Round     string       // the round the money is for, "4-17"
	Amount    money.Amount // minor units of the operator's currency
	Kind      string       // debit: main, double, split, insurance, challenge, back; credit: settle, return
	Reference string       // rollback: the debit it undoes
	State     string       // CallPending, CallOK, CallRefused, CallLapsed
	Counted   bool         // a debit whose money a record's stake is (LogAppend.Counts)
	Attempts  int          // deliveries tried
	NextTry   time.Time    // a pending call is not sent again before it
	Answer    json.RawMessage
	Created   time.Time
	Answered  time.Time
	// Game is the table's game (its profile); Session the player's game
	// session (the transaction ID of the authenticate of his launch);
	// RoundClosed marks the call that closes its round (a settlement, a
	// round void).
	Game        string
	Session     string
	RoundClosed bool
	// A credit or rollback the operator refused is money owed:
	// it is sent again as a new call whose RetryOf is its ID, at NextRetry
	// (zero: no more tries of sabot's own), until one is acknowledged or
	// the pit resolves it by hand (Resolved: the reason; ResolvedBy, At).
	// Retries is how many times Outbox.Owed found it sent again.
	RetryOf    string
	NextRetry  time.Time
	Resolved   string
	ResolvedBy string
	ResolvedAt time.Time
	Retries    int
}

// CallQuery selects wallet calls for Outbox.Calls, in the order they were
// written (Created, ID).
type CallQuery struct {
	ID        string    // "": any
	Round     string    // "": any
	TableID   int64     // 0: every table
	Op        string    // "": every operation
	States    []string  // none: every state
	Uncounted bool      // only debits not counted
	Since     time.Time // zero: from the first
	Until     time.Time // zero: to the last (exclusive)
	Limit     int       // 0: no limit
}

// Outbox is a Store that keeps the calls to the operator's wallet: written
// with the log records that cause them (LogAppend.Calls), then
// claimed by a deliverer, answered, and kept as the record that the
// reconciliation compares with the operator's statement.
type Outbox interface {
	// ClaimCalls takes up to n pending credits and rollbacks whose next try
	// is due at now, in the order they were written, and moves each one's
	// next try to now + lease and its attempts up by one, in one
	// transaction: two deliverers (two nodes) do not take the same call at
	// once. Debits are the table's own to send (within their time limit)
	// and are never claimed.
	ClaimCalls(ctx context.Context, now time.Time, n int, lease time.Duration) ([]*WalletCall, error)
	// AnswerCall writes a call's answer: state CallOK, CallRefused or
	// CallLapsed, at a time; or CallPending to leave it unanswered until
	// retry. ENOTFOUND if there is no such call. A call answered already
	// keeps its first answer (the operator answers a repeat as the first
	// time): AnswerCall then changes nothing.
	AnswerCall(ctx context.Context, id, state string, answer json.RawMessage, at, retry time.Time) error
	// Calls returns the calls a query selects.
	Calls(ctx context.Context, q CallQuery) ([]*WalletCall, error)
	// OperatorUser returns the player of an operator's ID, creating him
	// (named name, no password) the first time; ECONFLICT if the name is
	// another user's.
	OperatorUser(ctx context.Context, operatorID, name string) (*User, error)
	// UseLaunchToken records that a launch token (its hash) opened a game
	// session for a user; ECONFLICT if it was used before. LaunchSession
	// is a user's latest game session ("" if none).
	UseLaunchToken(ctx context.Context, hash string, userID int64, session string, at time.Time) error
	LaunchSession(ctx context.Context, userID int64) (string, error)
	// Owed returns the money owed: every credit and rollback the operator
	// refused that no call sent again has paid and the pit has not
	// resolved, with its Retries.
	Owed(ctx context.Context) ([]*WalletCall, error)
	// RetryOwed writes, for each call owed whose NextRetry is due at now
	// and that has no call sent again still unanswered, a new pending call
	// (RetryOf its ID, due at once), clears its NextRetry, and returns the
	// new calls.
	RetryOwed(ctx context.Context, now time.Time) ([]*WalletCall, error)
	// ScheduleRetry sets when a call owed is sent again (the call, or the
	// one it sends again); the zero time: not by sabot.
	ScheduleRetry(ctx context.Context, id string, at time.Time) error
	// ResolveOwed closes a call owed by hand, with a reason and who
	// resolved it: ENOTFOUND if it is not owed, ECONFLICT while a call
	// that sends it again is unanswered (it may pay it).
	ResolveOwed(ctx context.Context, id, reason, by string, at time.Time) error
}
