package sabot

import (
	"context"
	"time"
)

// Store is where everything lasting is kept. Its methods are safe for
// concurrent use. Errors are *Error with a code.
type Store interface {
	// CreateUser sets ID and Created; ECONFLICT on a name taken, compared
	// by FoldName ("Alice" takes "alice").
	CreateUser(ctx context.Context, u *User) error
	// UserByName returns the user of exactly that name, or else the one
	// whose name has the same FoldName (the first registered, where a
	// store made before names were folded holds several).
	UserByName(ctx context.Context, name string) (*User, error)
	UserByID(ctx context.Context, id int64) (*User, error)
	// SetPassword replaces a user's password hash and moves his
	// credentials on, in one transaction that also ends every session of
	// his; it returns the new User.Credentials.
	SetPassword(ctx context.Context, userID int64, hash []byte) (int64, error)
	// Players lists up to limit players (not staff, not administrators)
	// whose FoldName begins with prefix, in that order.
	Players(ctx context.Context, prefix string, limit int) ([]*User, error)

	CreateSession(ctx context.Context, s *Session) error
	SessionByToken(ctx context.Context, token string) (*Session, error)
	TouchSession(ctx context.Context, token string, at time.Time) error
	// TouchSessions sets the LastSeen of several sessions in one
	// transaction, each to the later of its own and the time given; a
	// session gone (logged out, expired) is skipped.
	TouchSessions(ctx context.Context, seen map[string]time.Time) error
	DeleteSession(ctx context.Context, token string) error

	// Account returns the account of a kind and owner, creating it empty.
	Account(ctx context.Context, kind string, ownerID int64) (*Account, error)
	// Transfer writes one balanced ledger transaction.
	Transfer(ctx context.Context, memo string, postings []Posting) error

	CreateTable(ctx context.Context, t *Table) error
	Tables(ctx context.Context) ([]*Table, error)
	TableByID(ctx context.Context, id int64) (*Table, error)

	// Append writes a log record and its ledger postings in one transaction,
	// setting rec.Seq. A record whose (TableID, ClientID, CommandID) is
	// already in the log is not written again: Append returns dup = true
	// with rec filled from the first one.
	Append(ctx context.Context, rec *LogAppend, postings []Posting) (dup bool, err error)
	// Command returns the record a command wrote: the one whose (TableID,
	// ClientID, CommandID) these are; ENOTFOUND if there is none.
	Command(ctx context.Context, tableID int64, clientID, commandID string) (*LogRecord, error)
	// Log returns a table's records with Seq >= from, in order.
	Log(ctx context.Context, tableID, from int64) ([]*LogRecord, error)
	// Find returns the records of some kinds, of one table or of all: the
	// significant events, a table's latest snapshot, a round's records, a
	// shoe's, a player's rounds.
	Find(ctx context.Context, q LogQuery) ([]*LogRecord, error)

	// CheckLedger proves every balance equals the sum of its entries and
	// every transaction nets to zero.
	CheckLedger(ctx context.Context) (*LedgerReport, error)

	Close() error
}

// CommitObserver is a Store that tells how its group commit goes: fn is
// called after each transaction of appends it commits, once its appends
// have their outcome (nil: no more calls), on the goroutine that committed
// it; fn must be quick: the next transaction waits for it.
type CommitObserver interface {
	ObserveCommits(fn func(CommitStats))
}

// CommitStats is one transaction of a group commit (CommitObserver).
type CommitStats struct {
	Appends int           // appends in the transaction, refused ones included
	Took    time.Duration // the transaction, its sync included
	// Waits holds, for each decision (LogAction, LogTimeout) in the
	// transaction, the time from its arrival at the store's writer to the
	// transaction's start. Valid only during the call.
	Waits []time.Duration
}

// WriteChecker is a Store that can tell whether it accepts writes now: a
// write that it rolls back. The server's readiness check (/readyz) and its
// start ask it: a database opened read-only serves reads and refuses every
// login, bet and payout.
type WriteChecker interface {
	CheckWritable(ctx context.Context) error
}
