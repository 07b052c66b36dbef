// Package live is the staff's live table (docs/live.md): a
// table dealt from a physical shoe, its dealer's console and card readers
// (the cards read, taken back, the cut card, no more bets, the dealer's
// irregularities), its walk-in players and their chips, the inspector's
// corrections, approvals and rulings, and the staff's accounts and
// devices.
//
// The table server runs each command in a table's actor and hands it a
// Table: the few things a live command does to a table beyond reading it
// (append a record, publish, go on with the round). The commands'
// rules are here; the actor keeps the table, its log and its timers.
package live

import (
	"context"
	"net/http"
	"time"

	"sabot"
	"sabot/card"
	"sabot/engine"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/table"
)

// Table is what a live command needs of the table it runs at, in the
// table's actor: the server's actor implements it, bound to the command
// (its record carries the command's IDs).
type Table interface {
	// Table is the table itself: read, and changed where a command feeds,
	// takes back or burns a card.
	Table() *table.Table
	// ID is the table's.
	ID() int64
	// Options are the options the table was opened with.
	Options() map[string]string
	// Dealt reports whether a round is in play: dealt and not yet settled
	// or void in the log.
	Dealt() bool
	// Seq is the last record's sequence number in the table's log.
	Seq() int64
	// Pending are the requests waiting for the inspector.
	Pending() *Pending
	// Player is a player's user ID, if the table knows him.
	Player(name string) (int64, bool)

	// Append writes a record of the command in the table's log, with its
	// postings: its sequence number.
	Append(ctx context.Context, r Record) (int64, error)
	// Rebuild rebuilds the table from its log, after a change to the
	// table whose record was not written.
	Rebuild(ctx context.Context)
	// Publish tells the table's clients of an event.
	Publish(e wire.Event)
	// PublishRound tells them of the round's events not yet told, by whom.
	PublishRound(by string)
	// Undone tells them that a card went back (back, face down or not):
	// the round asks for it again. expose: a hole card turned after it is
	// turned again before anyone decides (AR-23 (g)).
	Undone(by string, back card.Card, expose bool)
	// Proceed goes on with the round: settles it if it is over, asks for
	// the next card or decision.
	Proceed(ctx context.Context)
	// House applies a house action and records it (false: it was refused
	// or not written, and the table rebuilt).
	House(ctx context.Context, act engine.Action) bool
	// Act applies a house action the command makes, checked by its caller,
	// recorded under the command: its record's sequence number.
	Act(ctx context.Context, act engine.Action) (int64, error)
	// Deal deals the round now, if the bets allow it: the refusal says
	// what is missing.
	Deal(ctx context.Context) (int64, error)
	// Sit seats a user at a box, as the command's sender.
	Sit(ctx context.Context, u *sabot.User, box int) (int64, error)
}

// Record is a record a command appends to the table's log.
type Record struct {
	Kind     string // sabot.LogCard, LogAdmin, ...
	Round    int
	Payload  any // tablelog.Card, tablelog.Cut or a tablelog.Event
	Postings []sabot.Posting
	// Again: the command's second record; it carries no command IDs (the
	// first does).
	Again bool
}

// Sender is who sent a command: a user (the dealer, the inspector, the
// pit) and, from a card reader, its ID.
type Sender struct {
	User   *sabot.User
	Device int64
}

// Store is what the live table reads and writes of the store: the ledger's
// accounts, the walk-ins' users and a table's configuration.
type Store interface {
	Account(ctx context.Context, kind string, ownerID int64) (*sabot.Account, error)
	CreateUser(ctx context.Context, u *sabot.User) error
	UserByName(ctx context.Context, name string) (*sabot.User, error)
	TableByID(ctx context.Context, id int64) (*sabot.Table, error)
}

// Live is the live table's dependencies on the server, for the commands
// that reach past a table (the store, the server's flags) and for its
// HTTP handlers.
type Live struct {
	Store Store
	// Readers keeps the card readers (the store's sabot.Devices; nil: a
	// store that keeps none).
	Readers sabot.Devices
	Now     func() time.Time
	// CashApproval and FloatLimit are the server's cash limits (0: the
	// defaults; negative: none), where a table's options set none.
	CashApproval, FloatLimit money.Amount
	// CashShift is how long a shift lasts for cash_approval: a walk-in's
	// buy-ins, and those a dealer made alone, are summed over it against
	// the table's cash_approval (0: DefaultCashShift; negative: each
	// buy-in alone).
	CashShift time.Duration
	sales     sales
	// Account is an account's ID (cached by the server).
	Account func(ctx context.Context, kind string, owner int64) (int64, error)
	// Balance is an account's balance (0 if it cannot be read).
	Balance func(ctx context.Context, kind string, owner int64) money.Amount

	// The HTTP side.
	Decode     func(r *http.Request, v any) error
	WriteError func(w http.ResponseWriter, r *http.Request, err error)
	WriteJSON  func(w http.ResponseWriter, status int, v any)
	// CreateUser makes a user with a password and a role.
	CreateUser func(ctx context.Context, name, password, role string) (*sabot.User, error)
	// Event writes a significant event to the system log.
	Event func(ctx context.Context, by *sabot.User, a tablelog.Event)
}

// physicalOnly refuses a dealer's command at a table dealt from a
// shuffled shoe.
func physicalOnly(t Table) error {
	if !t.Table().Physical() {
		return sabot.Errorf(sabot.ECONFLICT, "refused: the table deals from the server's shuffled shoe; cards are read only at a table opened with shoe=physical")
	}
	return nil
}
