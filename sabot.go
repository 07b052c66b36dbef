// Package sabot is the application domain shared by the store, the table
// server and the command line: users and their wallets, the double-entry
// ledger, tables, and the append-only log from which every table and round is
// rebuilt (game recall, crash recovery). The rules themselves live in the
// core packages card, shoe, rules, engine and table.
package sabot

import (
	"context"
	"encoding/json"
	"sabot/money"
	"time"
)

// User is a registered player (or an administrator).
type User struct {
	ID           int64
	Name         string
	PasswordHash []byte // bcrypt
	Admin        bool
	// Role is a member of the staff's at a live table: RoleDealer
	// or RoleInspector; a walk-in player's, RoleGuest; "" for a player (or
	// the pit, Admin). Staff do not play.
	Role string
	// OperatorID is the operator's ID of a player who comes from an
	// operator's site and plays on the operator's wallet (docs/wallet.md); ""
	// for everyone else. Such a player has no password
	// and never logs in: the operator's token opens his session.
	OperatorID string
	Created    time.Time
	// Credentials is the version of the user's password: it moves on with
	// each change (SetPassword). A session is made against the version
	// read with the hash it matched, and only while that is still the
	// user's.
	Credentials int64
}

// The roles (User.Role; docs/live.md).
const (
	RoleDealer    = "dealer"    // deals a physical shoe: reads its cards in, at the console
	RoleInspector = "inspector" // the Inspector or Jefe de Mesa: approves the dealer's corrections (AR-23)
	// RoleGuest is a walk-in player at a live table: the dealer seats him,
	// sells him chips for cash and enters his bets and decisions. He has no
	// password and never logs in; his name starts with '#', which no
	// registered name has.
	RoleGuest = "guest"
)

// Staff reports whether the user works the tables rather than plays.
func (u *User) Staff() bool { return u.Role == RoleDealer || u.Role == RoleInspector }

// Session is a login: a random token, valid until it has been idle too long.
type Session struct {
	Token    string // stored hashed; the client holds the plain token
	UserID   int64
	Created  time.Time
	LastSeen time.Time
	// Credentials is the User.Credentials the session's login matched:
	// CreateSession refuses it (EUNAUTHORIZED, reason
	// "credentials_changed") once the user's have moved on.
	Credentials int64
}

// Account kinds of the ledger. Every chip is in exactly one account.
const (
	AccountWallet = "wallet" // a player's play-money wallet; never below zero
	AccountTable  = "table"  // stakes in play at a table (escrow between bet and settlement)
	AccountHouse  = "house"  // the house's central bankroll (owner 0: the credits, and the rounds settled before AccountTableHouse); may go negative. Owner a table: that live table's cash float (chips sold for cash to walk-in players)
	AccountBank   = "bank"   // FAM-02: a player's money holding the bank at a family table
	// AccountTableHouse is the house's side of one table's rounds (owner
	// the table; may go negative), so that no two tables' settlements
	// update one row (no hot row). The house is AccountHouse
	// of owner 0 and every table's AccountTableHouse: see IsHouse.
	AccountTableHouse = "house-table"
)

// IsHouse reports whether an account of a kind and owner is part of the
// house: the central house (AccountHouse, owner 0; the rounds settled before
// the tables had their own, the grants) or a table's (AccountTableHouse).
// A live table's cash float (AccountHouse of the table) is not.
func IsHouse(kind string, owner int64) bool {
	return kind == AccountHouse && owner == 0 || kind == AccountTableHouse
}

// Account is one account of the ledger.
type Account struct {
	ID      int64
	Kind    string
	OwnerID int64        // user for wallet and bank, table for table and house-table, 0 for house
	Balance money.Amount // equals the sum of its entries
}

// Posting is one leg of a ledger transaction: an amount added to (positive)
// or taken from (negative) an account. The postings of one transaction sum
// to zero. A posting that would take a wallet below zero fails the whole
// transaction with EINSUFFICIENT.
type Posting struct {
	AccountID int64
	Amount    money.Amount
	Memo      string
}

// Log record kinds. A table's log, replayed in order through the table and
// engine packages, rebuilds the table exactly: seats, shoe, the round in play.
const (
	LogTableOpened = "table-opened" // the table's profile and options
	LogShoe        = "shoe"         // a new shoe: its seed commitment, order, cut, burns
	LogShoeReveal  = "shoe-reveal"  // the shoe's seed revealed after its last round
	LogSit         = "sit"
	LogLeave       = "leave"
	LogBet         = "bet"          // a stake for the next round (debited at once)
	LogBetWithdraw = "bet-withdraw" // a stake withdrawn before the deal (credited back)
	LogDeal        = "deal"         // rien ne va plus: the round starts
	LogAction      = "action"       // a decision, by a player or by the dealer closing a window
	LogTimeout     = "timeout"      // a decision's default, applied by the server when its timer ran out
	LogSettle      = "settle"       // the round's settlement (payouts credited)
	LogVoid        = "void"         // the round is void, every stake returned
	LogAdmin       = "admin"        // a significant event: credit, table created, void by the pit, new shoe, forced cards
	LogConfigure   = "configure"    // a live table's configuration changed between rounds
	LogSnapshot    = "snapshot"     // the table's state between rounds: a start replays the log from here
	// A table dealt from a physical shoe (docs/live.md).
	LogCard     = "card"      // a card read from the shoe into the round: who read it, from which device
	LogCardUndo = "card-undo" // the last card read taken back before anyone acted on it
	LogCutCard  = "cut-card"  // the cut card came out of the shoe (EG-04)
	// LogWalletDebit is a debit asked of the operator's wallet for an
	// operator's player's stake (docs/wallet.md): the stake
	// counts only in a later record, once the debit is acknowledged.
	LogWalletDebit = "wallet-debit"
	// LogShoeStep is a step a new shoe takes before its first deal where
	// the profile asks them (player_cut; AR-07, EG-02): the inspector's
	// authorisation of the shuffle, the player's cut and where he cut.
	LogShoeStep = "shoe-step"
)

// LogKinds are every kind of log record, in the order of their constants:
// each has its entry in the table server's registry of log kinds (its
// payload, its replay, its words, its recall), which refuses to start
// without one.
var LogKinds = []string{LogTableOpened, LogShoe, LogShoeReveal, LogSit, LogLeave, LogBet, LogBetWithdraw, LogDeal, LogAction,
	LogTimeout, LogSettle, LogVoid, LogAdmin, LogConfigure, LogSnapshot, LogCard, LogCardUndo, LogCutCard, LogWalletDebit, LogShoeStep}

// SignificantKinds are the kinds of log record that make up the
// significant-event log (GLI-19): voids, timeouts, administrators' acts
// (credits, tables created, voids, new shoes, forced cards) and
// configuration changes.
var SignificantKinds = []string{LogTableOpened, LogAdmin, LogConfigure, LogVoid, LogTimeout, LogShoeStep}

// LogRecord is one entry of a table's append-only log.
type LogRecord struct {
	Seq     int64 // per table, from 1, gapless
	TableID int64
	Kind    string
	// ClientID and CommandID identify the client command that wrote it: a
	// command repeated with the same IDs is applied once (GLI-19 §4.2.3).
	ClientID  string
	CommandID string
	UserID    int64
	RoundNo   int64 // the round it belongs to, 0 for none
	// ShoeNo is the shoe a shoe, shoe-reveal or deal record belongs to, 0
	// for none: a shoe's records are found by it (LogQuery.Shoe).
	ShoeNo int64
	// Epoch is the lease under which the record was appended (Cluster):
	// the store refuses the append (ErrFenced) unless it is the table's
	// epoch now. 0: not fenced (one process, or a log no node owns: the
	// significant events). The log keeps it: a table's epochs never go
	// down along its log.
	Epoch   int64
	Payload json.RawMessage
	Created time.Time
}

// LogAppend is a request to append a record (Store.Append): the record,
// whose Seq (and Created, if zero) Append fills, and what Append writes
// or checks in the record's transaction besides; none of it is stored in
// the record, and a read of the log has none of it.
type LogAppend struct {
	*LogRecord
	// Users are the users the record is indexed under, in the same
	// transaction (LogQuery.UserID): the players who bet in the round a
	// settle or void record closes.
	Users []int64
	// Calls are the calls to the operator's wallet the record causes,
	// written to the outbox in its transaction (Outbox): a crash keeps the
	// record and its calls, or neither. Counts are the debits (acknowledged
	// and not counted yet) whose money the record's stakes are: Append
	// marks them counted in its transaction, and refuses the record
	// (ECONFLICT) if one is not acknowledged or already counted.
	Calls  []WalletCall
	Counts []string
	// Guard is the eligibility of the player whose stake the record takes
	// (nil: none to check), checked in its transaction: Append
	// refuses the record with the guard's error.
	Guard *StakeGuard
	// Guards are the other players whose stakes the record takes with the
	// first's (back bets following the holder's split or double,
	// back_follow=follow: ES-03, VE-12), each checked as Guard is.
	Guards []*StakeGuard
}

// Appending is the request to append rec with nothing besides.
func Appending(rec *LogRecord) *LogAppend { return &LogAppend{LogRecord: rec} }

// StakeGuard is checked in the transaction that records a player's stake,
// after its postings: they lock the player's wallet, so two stakes of one
// player, at any tables on any nodes, are checked one after the other, each
// seeing the other's entries. The store reads the player's eligibility —
// whether the session the stake came from still stands, his exclusion, his
// limits and what they have used, this stake included — and Check decides;
// its error refuses the record, which changes nothing.
type StakeGuard struct {
	UserID int64
	// Session is the token of the session the stake came from ("": a
	// command no session sent, which is not checked).
	Session string
	Check   func(Eligibility) error
}

// Eligibility is what a StakeGuard's Check is given, read in the stake's
// transaction.
type Eligibility struct {
	SessionLive bool // the stake's session stands (true when it had none)
	Care        PlayerCare
	Limits      []Limit
	// Usage reads the player's usage since a time, in the transaction: the
	// stake being recorded included.
	Usage func(since time.Time) (Usage, error)
}

// LogQuery selects log records by kind for Store.Find. Records come in the
// order (Created, TableID, Seq) — one table's in the order of its log —
// or the reverse with Newest. Every field but Since narrows the query on an
// index: its cost follows what it returns, not the length of the logs.
type LogQuery struct {
	Kinds   []string  // at least one
	TableID int64     // 0: every table
	Since   time.Time // zero: from the first
	Limit   int       // 0: no limit
	Newest  bool      // the newest first
	// FromRound and ToRound keep one table's records whose RoundNo is in
	// [FromRound, ToRound] (0: no bound on that side). Setting either
	// excludes the records of no round (RoundNo 0). They need TableID.
	FromRound, ToRound int64
	// Shoe keeps one table's records of that shoe (ShoeNo; 0: any). It
	// needs TableID.
	Shoe int64
	// UserID keeps the records indexed under that user (LogAppend.Users;
	// 0: any).
	UserID int64
	// Before keeps the records older than it: of one table, those with
	// Seq < Before.Seq; across tables, those before (Before.Created,
	// Before.TableID, Before.Seq) in that order. With Newest it is the
	// cursor of the next page: the last record of this one. nil: no bound.
	Before *LogRecord
	// After keeps one table's records with Seq > After (0: no bound): a
	// reader that has read a table's log up to a record reads on from it,
	// oldest first (Rollups' marks). It needs TableID.
	After int64
}

// Table is a table's configuration.
type Table struct {
	ID       int64
	Name     string
	Profile  string            // a built-in profile name
	Options  map[string]string // options on top of the profile
	TestMode bool              // forced-card dealing allowed; every round marked so
	Created  time.Time
	// Owner, when set at CreateTable, is the node that serves the table
	// from its creation, at epoch 1 (a cluster: no other node can claim it
	// between its creation and its first claim). CreateTable only.
	Owner string
}

// LedgerReport is the result of checking the ledger.
type LedgerReport struct {
	Accounts     int
	Entries      int
	Transactions int
	Total        int64    // the sum of every entry: 0 when the ledger balances
	House        int64    // the house's balance: the central account's and every table's (IsHouse)
	HouseTables  int      // how many tables' house accounts House sums
	Problems     []string // each account whose balance differs from its entries, each unbalanced transaction
}

// OK reports whether the ledger balances.
func (r *LedgerReport) OK() bool { return r.Total == 0 && len(r.Problems) == 0 }

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

// Care is a Store that keeps the players' responsible-gaming settings on
// the built-in wallets (docs/players.md): limits on deposits,
// losses and stakes over a rolling period, the reality check and the
// exclusions. The policy (when a change applies, what a limit refuses) is
// player care's (internal/care); the store keeps what it is given and
// reads the ledger.
type Care interface {
	// Limits returns a player's limits, pending changes included.
	Limits(ctx context.Context, userID int64) ([]Limit, error)
	// PutLimit writes a player's limit of its kind and period as given;
	// DeleteLimit removes it.
	PutLimit(ctx context.Context, userID int64, l Limit) error
	DeleteLimit(ctx context.Context, userID int64, kind, period string) error
	// CareOf returns a player's reality check and exclusion (the defaults
	// if none was set); PutCare writes them.
	CareOf(ctx context.Context, userID int64) (*PlayerCare, error)
	PutCare(ctx context.Context, userID int64, c PlayerCare) error
	// SetBlock writes the pit's block of a player (reason "": lifted),
	// and nothing else of his care.
	SetBlock(ctx context.Context, userID int64, reason string, at time.Time) error
	// Usage sums a player's wallet entries since a time: what was credited
	// to it, staked from it and its net at the tables.
	Usage(ctx context.Context, userID int64, since time.Time) (Usage, error)
	// EndSessions deletes every session of a player and returns how many.
	EndSessions(ctx context.Context, userID int64) (int, error)
	// LiveSessions counts a player's sessions used at since or later (an
	// older one is over: idle too long).
	LiveSessions(ctx context.Context, userID int64, since time.Time) (int, error)
	// SweepSessions deletes every session last used before a time (idle
	// too long: over) and returns how many.
	SweepSessions(ctx context.Context, before time.Time) (int, error)
	// Seen records that a player registered or logged in from each of
	// marks ("address:…", "device:…"; kept as hashes; his latest
	// MaxSeenMarks only) at a time, and
	// returns the other players seen from any of them whose exclusion is
	// in force then.
	Seen(ctx context.Context, userID int64, marks []string, at time.Time) ([]Sighting, error)
}

// MaxSeenMarks is how many marks (Care.Seen) a store keeps of one player:
// his latest (a client that sends a new device cookie at each login adds
// no more than these).
const MaxSeenMarks = 32

// Sighting is a player under an exclusion seen before from a mark (its
// kind: "address" or "device") that another player now comes from.
type Sighting struct {
	UserID    int64
	Name      string
	Mark      string
	Exclusion string
	Until     time.Time
}

// Revocation says that a player's session ended (a logout, an idle
// expiry) or, with Player, that the player may no longer play at all (a
// time-out, a self-exclusion): every node closes what it holds of him.
// Origin is the node that made it.
type Revocation struct {
	UserID int64  `json:"user"`
	Player bool   `json:"player,omitempty"`
	Origin string `json:"origin,omitempty"`
}

// Revoker is a Store several nodes share that carries revocations from the
// node that makes one to every other, at once (PostgreSQL: NOTIFY). It is
// the prompt half: the stake's own transaction (StakeGuard) refuses a
// stake of an ended session or an excluded player whether or not a node
// heard.
type Revoker interface {
	// Revoke tells every node watching, after the change it follows has
	// committed.
	Revoke(ctx context.Context, r Revocation) error
	// WatchRevocations calls fn with each revocation, until ctx ends. After
	// a break in the watch (revocations may have been missed) it calls fn
	// with a Revocation of UserID 0: check everything.
	WatchRevocations(ctx context.Context, fn func(Revocation)) error
}

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

// Devices is a Store that keeps the card readers the pit issues to the
// tables dealt from a physical shoe (docs/live.md). A device
// authenticates with its token, kept only as its SHA-256.
type Devices interface {
	// CreateDevice stores a device of a table under its token, setting ID
	// and Created.
	CreateDevice(ctx context.Context, d *Device, token string) error
	// DeviceByToken returns the device of a token, revoked or not;
	// ENOTFOUND if there is none.
	DeviceByToken(ctx context.Context, token string) (*Device, error)
	// TableDevices returns a table's devices, the revoked ones included.
	TableDevices(ctx context.Context, tableID int64) ([]*Device, error)
	// RevokeDevice marks a device revoked from a time; ENOTFOUND if there is
	// none. Revoking one already revoked changes nothing.
	RevokeDevice(ctx context.Context, id int64, at time.Time) error
}

// Device is a card reader (or any device that reads the cards of one
// table's physical shoe): its name, who issued it, and whether it was
// revoked.
type Device struct {
	ID        int64     `json:"id"`
	TableID   int64     `json:"table"`
	Name      string    `json:"name"`
	CreatedBy string    `json:"created_by"`
	Created   time.Time `json:"created"`
	Revoked   time.Time `json:"revoked,omitzero"`
}

// Limit is a responsible-gaming limit: Kind "deposit", "loss" or "stake",
// over Period "day", "week" or "month" (rolling), at most Amount. A raise or
// a removal waits for its cooling period: Pending is the amount it raises
// to (NoPending: none; RemovalPending: the limit goes) from PendingFrom.
type Limit struct {
	Kind        string       `json:"kind"`
	Period      string       `json:"period"`
	Amount      money.Amount `json:"amount"`
	Pending     money.Amount `json:"pending"`
	PendingFrom time.Time    `json:"pending_from"`
	SetAt       time.Time    `json:"set_at"`
}

// A Limit's Pending: none, or the limit's removal.
const (
	NoPending      money.Amount = -1
	RemovalPending money.Amount = -2
)

// PlayerCare is a player's reality check (every RealityMinutes of a
// session, 0 none) and exclusion ("time-out" or "self-exclusion", from
// ExcludedFrom until ExcludedUntil; "" none).
type PlayerCare struct {
	RealityMinutes int       `json:"reality_minutes"`
	Exclusion      string    `json:"exclusion,omitempty"`
	ExcludedFrom   time.Time `json:"excluded_from,omitzero"`
	ExcludedUntil  time.Time `json:"excluded_until,omitzero"`
	// Blocked is the reason the pit gave for blocking the player ("": not
	// blocked), BlockedAt when; a block holds until the pit lifts it. Read
	// here, written only by SetBlock (PutCare leaves it as it is).
	Blocked   string    `json:"-"`
	BlockedAt time.Time `json:"-"`
}

// Usage is what a player's wallet saw over a period: Credited (credits to
// it, the pit's and the welcome), Staked (stakes put on the tables, less
// those returned unplayed) and Net (everything won and lost at the tables,
// stakes in play counted as lost until settled).
type Usage struct {
	Credited money.Amount `json:"credited"`
	Staked   money.Amount `json:"staked"`
	Net      money.Amount `json:"net"`
}

// Cluster is a Store that several nodes (`sabot serve` processes) share:
// each node holds a lease that it renews, each table is owned by one node
// at a time under an epoch, and an append carrying an epoch that is no
// longer its table's is refused in the append's own transaction
// (ErrFenced). The lease times are the database's clock, not the nodes'.
type Cluster interface {
	// Join registers a node (ID and URL set; Started and Expires are set
	// from the database's clock), its lease lasting ttl.
	Join(ctx context.Context, n *Node, ttl time.Duration) error
	// Renew extends a node's lease by ttl from now. ErrLeaseLost if it had
	// expired or the node left: the node owns nothing any more (another
	// may have claimed its tables) and must join again as a new node.
	Renew(ctx context.Context, node string, ttl time.Duration) error
	// Drain marks a node as handing its tables over: the others no longer
	// count it when they share the tables out.
	Drain(ctx context.Context, node string) error
	// Leave ends a node's lease and frees its tables at once.
	Leave(ctx context.Context, node string) error
	// Claim makes a live node the owner of a table that has no owner or
	// whose owner's lease has expired, under the next epoch, which it
	// returns; ECONFLICT if a live node owns it, ErrLeaseLost if the
	// claimant's own lease has expired.
	Claim(ctx context.Context, node string, table int64) (epoch int64, err error)
	// Release frees a table that node owns at that epoch, so that another
	// may claim it at once (ECONFLICT if it does not own it).
	Release(ctx context.Context, node string, table, epoch int64) error
	// Nodes lists the nodes that have joined, live or not, and Leases
	// every served table's owner, as the database's clock sees them.
	Nodes(ctx context.Context) ([]Node, error)
	Leases(ctx context.Context) ([]Lease, error)
	// NodeLost marks a node whose lease expired as lost: true for exactly
	// one caller, the one that reports the loss.
	NodeLost(ctx context.Context, node string) (bool, error)
}

// Node is one `sabot serve` process of a cluster.
type Node struct {
	ID       string
	URL      string // where the other nodes reach it
	Started  time.Time
	Renewed  time.Time // the last renewal of its lease
	Expires  time.Time
	Live     bool // its lease had not expired when it was read
	Draining bool // it hands its tables over (a shutdown under way)
	Left     bool // it left (a shutdown), its tables freed
	Lost     bool // its lease expired while it held it (a crash, a pause)
}

// Lease is a table's owner (Node "" for none) and epoch.
type Lease struct {
	TableID int64
	Node    string
	Epoch   int64
	Live    bool // its owner's lease had not expired when it was read
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
