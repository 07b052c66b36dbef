package sabot

import (
	"encoding/json"
	"time"
)

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
