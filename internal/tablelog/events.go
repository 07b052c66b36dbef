// Every significant event (a sabot.LogAdmin record) as its own type.

package tablelog

import (
	"encoding/json"

	"sabot/card"
	"sabot/internal/wire"
	"sabot/money"
)

// Names of the significant events (sabot.LogAdmin records, a
// wire.AdminEvent's Event) that a server writes. They are stored: a name
// is never changed, and an event whose values change shape is a new
// name. Each has its type below (EventTypes, in the order of Events, and
// its case in EventOf) and its words in recall's registry of events, keyed
// by that type and checked at its start; Events lists them. A new event
// is this file, its words (internal/recall/words.go), its writer and its
// phrases in the pit's three catalogues.
const (
	EventCredit             = "credit"              // a player's wallet credited by the pit
	EventAdminCreated       = "admin-created"       // an administrator created
	EventStaffCreated       = "staff-created"       // a dealer or an inspector created
	EventPasswordChanged    = "password-changed"    // a user changed his password
	EventPlayerBlocked      = "player-blocked"      // the pit blocked a player
	EventPlayerUnblocked    = "player-unblocked"    // the pit lifted a block
	EventTimeOut            = "time-out"            // a player's time-out from play
	EventSelfExclusion      = "self-exclusion"      // a player's self-exclusion
	EventExcludedSeen       = "excluded-seen"       // an excluded player seen signing up again
	EventDeviceIssued       = "device-issued"       // a card reader's device issued
	EventDeviceRevoked      = "device-revoked"      // a device's token revoked
	EventCorrectionAsked    = "correction-asked"    // a dealer asked a correction (AR-23)
	EventCorrectionApproved = "correction-approved" // the inspector approved it
	EventCorrectionRefused  = "correction-refused"  // the inspector refused it
	EventBuyIn              = "buy-in"              // a walk-in's chips bought for cash (the table's drop)
	EventCashOut            = "cash-out"            // a walk-in's chips given back for cash
	EventRuling             = "ruling"              // the inspector's ruling, in his words
	EventWalletRollback     = "wallet-rollback"     // an operator's debit rolled back
	EventWalletUndelivered  = "wallet-undelivered"  // an operator's call not delivered
	EventWalletRefused      = "wallet-refused"      // an operator refused a call: money owed
	EventWalletPaid         = "wallet-paid"         // money owed, paid when sent again
	EventWalletResolved     = "wallet-resolved"     // money owed, resolved by hand
	EventForceCards         = "force-cards"         // test mode: the next round's cards forced
	EventNewShoe            = "new-shoe"            // a new shoe asked between rounds (AR-24)
	EventCloseTable         = "close-table"         // a table closed (003 §11)
	EventReopenTable        = "reopen-table"        // a closed table reopened
	EventVoid               = "void"                // the pit voided a round
	EventNodeJoined         = "node-joined"         // a node joined the cluster
	EventNodeLost           = "node-lost"           // a node lost, its tables taken over
	EventTableCreated       = "table-created"       // a table created (the system log)
	EventRTPOutside         = "rtp-outside"         // a table's return outside its band (docs/pit.md)
	EventAdvantagePlay      = "advantage-play"      // a player's bets follow the count
	EventIndexPlay          = "index-play"          // a player's play at the index hands follows the count
	EventBackCounting       = "back-counting"       // a player's back bets follow the count
)

// Events are the significant events' names, every one a server writes.
var Events = []string{
	EventCredit, EventAdminCreated, EventStaffCreated, EventPasswordChanged, EventPlayerBlocked, EventPlayerUnblocked,
	EventTimeOut, EventSelfExclusion, EventExcludedSeen, EventDeviceIssued, EventDeviceRevoked,
	EventCorrectionAsked, EventCorrectionApproved, EventCorrectionRefused, EventBuyIn, EventCashOut, EventRuling,
	EventWalletRollback, EventWalletUndelivered, EventWalletRefused, EventWalletPaid, EventWalletResolved,
	EventForceCards, EventNewShoe, EventCloseTable, EventReopenTable, EventVoid, EventNodeJoined, EventNodeLost,
	EventTableCreated, EventRTPOutside, EventAdvantagePlay, EventIndexPlay, EventBackCounting,
}

// An Event is a significant event as its own type: every writer builds
// one (never a wire.AdminEvent: TestEventsWrittenByTheirType), and recall
// words it by its type. Its JSON is today's wire.AdminEvent, its "event"
// the event's stored name (EventName, one of Events); EventType is its
// versioned type, as nats-server names its advisories
// (io.nats.server.advisory.v1.client_connect): an event whose values change
// shape is a new type, v2, and a new stored name, never the old one
// changed.
type Event interface {
	EventName() string
	EventType() string
	Admin() wire.AdminEvent
}

// EventTypePrefix begins every significant event's versioned type.
const EventTypePrefix = "sabot.event."

// The significant events' versioned types (Event.EventType).
const (
	CreditType             = EventTypePrefix + "v1." + EventCredit
	AdminCreatedType       = EventTypePrefix + "v1." + EventAdminCreated
	StaffCreatedType       = EventTypePrefix + "v1." + EventStaffCreated
	PasswordChangedType    = EventTypePrefix + "v1." + EventPasswordChanged
	PlayerBlockedType      = EventTypePrefix + "v1." + EventPlayerBlocked
	PlayerUnblockedType    = EventTypePrefix + "v1." + EventPlayerUnblocked
	TimeOutType            = EventTypePrefix + "v1." + EventTimeOut
	SelfExclusionType      = EventTypePrefix + "v1." + EventSelfExclusion
	ExcludedSeenType       = EventTypePrefix + "v1." + EventExcludedSeen
	DeviceIssuedType       = EventTypePrefix + "v1." + EventDeviceIssued
	DeviceRevokedType      = EventTypePrefix + "v1." + EventDeviceRevoked
	CorrectionAskedType    = EventTypePrefix + "v1." + EventCorrectionAsked
	CorrectionApprovedType = EventTypePrefix + "v1." + EventCorrectionApproved
	CorrectionRefusedType  = EventTypePrefix + "v1." + EventCorrectionRefused
	BuyInType              = EventTypePrefix + "v1." + EventBuyIn
	CashOutType            = EventTypePrefix + "v1." + EventCashOut
	RulingType             = EventTypePrefix + "v1." + EventRuling
	WalletRollbackType     = EventTypePrefix + "v1." + EventWalletRollback
	WalletUndeliveredType  = EventTypePrefix + "v1." + EventWalletUndelivered
	WalletRefusedType      = EventTypePrefix + "v1." + EventWalletRefused
	WalletPaidType         = EventTypePrefix + "v1." + EventWalletPaid
	WalletResolvedType     = EventTypePrefix + "v1." + EventWalletResolved
	ForceCardsType         = EventTypePrefix + "v1." + EventForceCards
	NewShoeType            = EventTypePrefix + "v1." + EventNewShoe
	CloseTableType         = EventTypePrefix + "v1." + EventCloseTable
	ReopenTableType        = EventTypePrefix + "v1." + EventReopenTable
	VoidType               = EventTypePrefix + "v1." + EventVoid
	NodeJoinedType         = EventTypePrefix + "v1." + EventNodeJoined
	NodeLostType           = EventTypePrefix + "v1." + EventNodeLost
	TableCreatedType       = EventTypePrefix + "v1." + EventTableCreated
	RTPOutsideType         = EventTypePrefix + "v1." + EventRTPOutside
	AdvantagePlayType      = EventTypePrefix + "v1." + EventAdvantagePlay
	IndexPlayType          = EventTypePrefix + "v1." + EventIndexPlay
	BackCountingType       = EventTypePrefix + "v1." + EventBackCounting
)

// Credit is a player's wallet credited by the pit: User the player, Memo the pit's note (EventCredit).
type Credit struct {
	User   string
	Amount money.Amount
	Memo   string
}

func (Credit) EventName() string { return EventCredit }
func (Credit) EventType() string { return CreditType }
func (e Credit) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventCredit, User: e.User, Amount: e.Amount, Memo: e.Memo}
}
func (e Credit) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// AdminCreated is an administrator created (EventAdminCreated).
type AdminCreated struct {
	User string
}

func (AdminCreated) EventName() string { return EventAdminCreated }
func (AdminCreated) EventType() string { return AdminCreatedType }
func (e AdminCreated) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventAdminCreated, User: e.User}
}
func (e AdminCreated) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// StaffCreated is a dealer or an inspector created (Role) (EventStaffCreated).
type StaffCreated struct {
	User string
	Text string
	Role string
}

func (StaffCreated) EventName() string { return EventStaffCreated }
func (StaffCreated) EventType() string { return StaffCreatedType }
func (e StaffCreated) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventStaffCreated, User: e.User, Text: e.Text, Role: e.Role}
}
func (e StaffCreated) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// PasswordChanged is a user changed his password (EventPasswordChanged).
type PasswordChanged struct {
	User string
	Text string
}

func (PasswordChanged) EventName() string { return EventPasswordChanged }
func (PasswordChanged) EventType() string { return PasswordChangedType }
func (e PasswordChanged) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventPasswordChanged, User: e.User, Text: e.Text}
}
func (e PasswordChanged) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// PlayerBlocked is the pit (By) blocked a player, Memo its reason (EventPlayerBlocked).
type PlayerBlocked struct {
	User string
	Memo string
	Text string
	By   string
}

func (PlayerBlocked) EventName() string { return EventPlayerBlocked }
func (PlayerBlocked) EventType() string { return PlayerBlockedType }
func (e PlayerBlocked) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventPlayerBlocked, User: e.User, Memo: e.Memo, Text: e.Text, By: e.By}
}
func (e PlayerBlocked) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// PlayerUnblocked is the pit (By) lifted a block, Memo its reason (EventPlayerUnblocked).
type PlayerUnblocked struct {
	User string
	Memo string
	Text string
	By   string
}

func (PlayerUnblocked) EventName() string { return EventPlayerUnblocked }
func (PlayerUnblocked) EventType() string { return PlayerUnblockedType }
func (e PlayerUnblocked) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventPlayerUnblocked, User: e.User, Memo: e.Memo, Text: e.Text, By: e.By}
}
func (e PlayerUnblocked) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// TimeOut is a player's time-out from play (EventTimeOut).
type TimeOut struct {
	User  string
	Text  string
	Days  int
	Until string
}

func (TimeOut) EventName() string { return EventTimeOut }
func (TimeOut) EventType() string { return TimeOutType }
func (e TimeOut) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventTimeOut, User: e.User, Text: e.Text, Days: e.Days, Until: e.Until}
}
func (e TimeOut) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// SelfExclusion is a player's self-exclusion (EventSelfExclusion).
type SelfExclusion struct {
	User  string
	Text  string
	Days  int
	Until string
}

func (SelfExclusion) EventName() string { return EventSelfExclusion }
func (SelfExclusion) EventType() string { return SelfExclusionType }
func (e SelfExclusion) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventSelfExclusion, User: e.User, Text: e.Text, Days: e.Days, Until: e.Until}
}
func (e SelfExclusion) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// ExcludedSeen is an excluded player seen signing up again as Name (EventExcludedSeen).
type ExcludedSeen struct {
	User  string
	Text  string
	Name  string
	Until string
}

func (ExcludedSeen) EventName() string { return EventExcludedSeen }
func (ExcludedSeen) EventType() string { return ExcludedSeenType }
func (e ExcludedSeen) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventExcludedSeen, User: e.User, Text: e.Text, Name: e.Name, Until: e.Until}
}
func (e ExcludedSeen) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// DeviceIssued is a card reader's device issued for a table (EventDeviceIssued).
type DeviceIssued struct {
	Text   string
	Table  int64
	Name   string
	Device int64
}

func (DeviceIssued) EventName() string { return EventDeviceIssued }
func (DeviceIssued) EventType() string { return DeviceIssuedType }
func (e DeviceIssued) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventDeviceIssued, Text: e.Text, Table: e.Table, Name: e.Name, Device: e.Device}
}
func (e DeviceIssued) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// DeviceRevoked is a device's token revoked (EventDeviceRevoked).
type DeviceRevoked struct {
	Text   string
	Device int64
}

func (DeviceRevoked) EventName() string { return EventDeviceRevoked }
func (DeviceRevoked) EventType() string { return DeviceRevokedType }
func (e DeviceRevoked) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventDeviceRevoked, Text: e.Text, Device: e.Device}
}
func (e DeviceRevoked) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// CorrectionAsked is a dealer asked a correction (AR-23) (EventCorrectionAsked).
type CorrectionAsked struct {
	Round      int
	Text       string
	Correction *wire.CorrectionView
}

func (CorrectionAsked) EventName() string { return EventCorrectionAsked }
func (CorrectionAsked) EventType() string { return CorrectionAskedType }
func (e CorrectionAsked) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventCorrectionAsked, Round: e.Round, Text: e.Text, Correction: e.Correction}
}
func (e CorrectionAsked) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// CorrectionApproved is the inspector approved a correction (AR-23) (EventCorrectionApproved).
type CorrectionApproved struct {
	Round      int
	Text       string
	Correction *wire.CorrectionView
}

func (CorrectionApproved) EventName() string { return EventCorrectionApproved }
func (CorrectionApproved) EventType() string { return CorrectionApprovedType }
func (e CorrectionApproved) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventCorrectionApproved, Round: e.Round, Text: e.Text, Correction: e.Correction}
}
func (e CorrectionApproved) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// CorrectionRefused is the inspector refused a correction (AR-23) (EventCorrectionRefused).
type CorrectionRefused struct {
	Round      int
	Text       string
	Correction *wire.CorrectionView
}

func (CorrectionRefused) EventName() string { return EventCorrectionRefused }
func (CorrectionRefused) EventType() string { return CorrectionRefusedType }
func (e CorrectionRefused) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventCorrectionRefused, Round: e.Round, Text: e.Text, Correction: e.Correction}
}
func (e CorrectionRefused) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// BuyIn is a walk-in's chips bought for cash at a box, sold by a dealer (By); Correction the inspector's approval over the table's cash_approval (EventBuyIn).
type BuyIn struct {
	User       string
	Amount     money.Amount
	Text       string
	Table      int64
	By         string
	Box        int
	Correction *wire.CorrectionView
}

func (BuyIn) EventName() string { return EventBuyIn }
func (BuyIn) EventType() string { return BuyInType }
func (e BuyIn) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventBuyIn, User: e.User, Amount: e.Amount, Text: e.Text, Table: e.Table, By: e.By, Box: e.Box, Correction: e.Correction}
}
func (e BuyIn) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// CashOut is a walk-in's chips given back for cash at a box, by a dealer (By); Correction the inspector's approval over the table's cash_approval (EventCashOut).
type CashOut struct {
	User       string
	Amount     money.Amount
	Text       string
	Table      int64
	By         string
	Box        int
	Correction *wire.CorrectionView
}

func (CashOut) EventName() string { return EventCashOut }
func (CashOut) EventType() string { return CashOutType }
func (e CashOut) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventCashOut, User: e.User, Amount: e.Amount, Text: e.Text, Table: e.Table, By: e.By, Box: e.Box, Correction: e.Correction}
}
func (e CashOut) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// Ruling is the inspector's (By) ruling, in his words (Text) (EventRuling).
type Ruling struct {
	Round int
	Text  string
	By    string
}

func (Ruling) EventName() string { return EventRuling }
func (Ruling) EventType() string { return RulingType }
func (e Ruling) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventRuling, Round: e.Round, Text: e.Text, By: e.By}
}
func (e Ruling) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// WalletRollback is an operator's debit (Memo its call) rolled back (EventWalletRollback).
type WalletRollback struct {
	User   string
	Amount money.Amount
	Memo   string
	Text   string
	Table  int64
}

func (WalletRollback) EventName() string { return EventWalletRollback }
func (WalletRollback) EventType() string { return WalletRollbackType }
func (e WalletRollback) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventWalletRollback, User: e.User, Amount: e.Amount, Memo: e.Memo, Text: e.Text, Table: e.Table}
}
func (e WalletRollback) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// WalletUndelivered is an operator's call (Memo) not delivered (EventWalletUndelivered).
type WalletUndelivered struct {
	User   string
	Amount money.Amount
	Memo   string
	Text   string
	Table  int64
}

func (WalletUndelivered) EventName() string { return EventWalletUndelivered }
func (WalletUndelivered) EventType() string { return WalletUndeliveredType }
func (e WalletUndelivered) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventWalletUndelivered, User: e.User, Amount: e.Amount, Memo: e.Memo, Text: e.Text, Table: e.Table}
}
func (e WalletUndelivered) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// WalletRefused is an operator refused a call (Memo its first): money owed (EventWalletRefused).
type WalletRefused struct {
	User   string
	Amount money.Amount
	Memo   string
	Text   string
	Table  int64
}

func (WalletRefused) EventName() string { return EventWalletRefused }
func (WalletRefused) EventType() string { return WalletRefusedType }
func (e WalletRefused) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventWalletRefused, User: e.User, Amount: e.Amount, Memo: e.Memo, Text: e.Text, Table: e.Table}
}
func (e WalletRefused) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// WalletPaid is money owed, paid when sent again (Memo the call refused) (EventWalletPaid).
type WalletPaid struct {
	User   string
	Amount money.Amount
	Memo   string
	Text   string
	Table  int64
}

func (WalletPaid) EventName() string { return EventWalletPaid }
func (WalletPaid) EventType() string { return WalletPaidType }
func (e WalletPaid) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventWalletPaid, User: e.User, Amount: e.Amount, Memo: e.Memo, Text: e.Text, Table: e.Table}
}
func (e WalletPaid) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// WalletResolved is money owed (Memo the call), resolved by hand by By (EventWalletResolved).
type WalletResolved struct {
	User   string
	Amount money.Amount
	Memo   string
	Text   string
	Table  int64
	By     string
}

func (WalletResolved) EventName() string { return EventWalletResolved }
func (WalletResolved) EventType() string { return WalletResolvedType }
func (e WalletResolved) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventWalletResolved, User: e.User, Amount: e.Amount, Memo: e.Memo, Text: e.Text, Table: e.Table, By: e.By}
}
func (e WalletResolved) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// ForceCards is test mode: the next round's cards forced (EventForceCards).
type ForceCards struct {
	Cards []card.Card
}

func (ForceCards) EventName() string { return EventForceCards }
func (ForceCards) EventType() string { return ForceCardsType }
func (e ForceCards) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventForceCards, Cards: e.Cards}
}
func (e ForceCards) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// NewShoe is a new shoe asked between rounds (AR-24) (EventNewShoe).
type NewShoe struct {
	Text string
}

func (NewShoe) EventName() string { return EventNewShoe }
func (NewShoe) EventType() string { return NewShoeType }
func (e NewShoe) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventNewShoe, Text: e.Text}
}
func (e NewShoe) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// CloseTable is a table closed by the pit (003 §11): User who, By his role, Table where its players are sent, Memo the reason (EventCloseTable).
type CloseTable struct {
	User  string
	Memo  string
	Text  string
	Table int64
	By    string
}

func (CloseTable) EventName() string { return EventCloseTable }
func (CloseTable) EventType() string { return CloseTableType }
func (e CloseTable) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventCloseTable, User: e.User, Memo: e.Memo, Text: e.Text, Table: e.Table, By: e.By}
}
func (e CloseTable) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// ReopenTable is a closed table reopened by User (EventReopenTable).
type ReopenTable struct {
	User string
	Text string
}

func (ReopenTable) EventName() string { return EventReopenTable }
func (ReopenTable) EventType() string { return ReopenTableType }
func (e ReopenTable) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventReopenTable, User: e.User, Text: e.Text}
}
func (e ReopenTable) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// Void is the pit voided a round (EventVoid).
type Void struct {
	Round int
	Text  string
}

func (Void) EventName() string { return EventVoid }
func (Void) EventType() string { return VoidType }
func (e Void) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventVoid, Round: e.Round, Text: e.Text}
}
func (e Void) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// NodeJoined is a node joined the cluster with Tables tables (EventNodeJoined).
type NodeJoined struct {
	Text   string
	Node   string
	URL    string
	Tables int
}

func (NodeJoined) EventName() string { return EventNodeJoined }
func (NodeJoined) EventType() string { return NodeJoinedType }
func (e NodeJoined) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventNodeJoined, Text: e.Text, Node: e.Node, URL: e.URL, Tables: e.Tables}
}
func (e NodeJoined) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// NodeLost is a node lost (last renewed At), its Tables tables taken over (EventNodeLost).
type NodeLost struct {
	Text   string
	Node   string
	URL    string
	Tables int
	At     string
}

func (NodeLost) EventName() string { return EventNodeLost }
func (NodeLost) EventType() string { return NodeLostType }
func (e NodeLost) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventNodeLost, Text: e.Text, Node: e.Node, URL: e.URL, Tables: e.Tables, At: e.At}
}
func (e NodeLost) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// TableCreated is a table created (the system log) (EventTableCreated).
type TableCreated struct {
	Text     string
	Table    int64
	Name     string
	Profile  string
	Options  map[string]string
	TestMode bool
}

func (TableCreated) EventName() string { return EventTableCreated }
func (TableCreated) EventType() string { return TableCreatedType }
func (e TableCreated) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventTableCreated, Text: e.Text, Table: e.Table, Name: e.Name, Profile: e.Profile, Options: e.Options, TestMode: e.TestMode}
}
func (e TableCreated) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// RTPOutside is a table's return outside its band (docs/pit.md) (EventRTPOutside).
type RTPOutside struct {
	Round  int
	Text   string
	Table  int64
	Return *wire.ReturnValues
}

func (RTPOutside) EventName() string { return EventRTPOutside }
func (RTPOutside) EventType() string { return RTPOutsideType }
func (e RTPOutside) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventRTPOutside, Round: e.Round, Text: e.Text, Table: e.Table, Return: e.Return}
}
func (e RTPOutside) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// AdvantagePlay is a player's bets follow the count (EventAdvantagePlay).
type AdvantagePlay struct {
	User  string
	Round int
	Text  string
	Table int64
	Count *wire.CountValues
}

func (AdvantagePlay) EventName() string { return EventAdvantagePlay }
func (AdvantagePlay) EventType() string { return AdvantagePlayType }
func (e AdvantagePlay) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventAdvantagePlay, User: e.User, Round: e.Round, Text: e.Text, Table: e.Table, Count: e.Count}
}
func (e AdvantagePlay) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// IndexPlay is a player's play at the index hands follows the count (EventIndexPlay).
type IndexPlay struct {
	User  string
	Round int
	Text  string
	Table int64
	Count *wire.CountValues
}

func (IndexPlay) EventName() string { return EventIndexPlay }
func (IndexPlay) EventType() string { return IndexPlayType }
func (e IndexPlay) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventIndexPlay, User: e.User, Round: e.Round, Text: e.Text, Table: e.Table, Count: e.Count}
}
func (e IndexPlay) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// BackCounting is a player's back bets follow the count (EventBackCounting).
type BackCounting struct {
	User  string
	Round int
	Text  string
	Table int64
	Count *wire.CountValues
}

func (BackCounting) EventName() string { return EventBackCounting }
func (BackCounting) EventType() string { return BackCountingType }
func (e BackCounting) Admin() wire.AdminEvent {
	return wire.AdminEvent{Event: EventBackCounting, User: e.User, Round: e.Round, Text: e.Text, Table: e.Table, Count: e.Count}
}
func (e BackCounting) MarshalJSON() ([]byte, error) { return json.Marshal(e.Admin()) }

// EventOf is a stored significant event as its type: false for a name that
// is none of Events. Only the values its type has are kept.
func EventOf(a wire.AdminEvent) (Event, bool) {
	switch a.Event {
	case EventCredit:
		return Credit{User: a.User, Amount: a.Amount, Memo: a.Memo}, true
	case EventAdminCreated:
		return AdminCreated{User: a.User}, true
	case EventStaffCreated:
		return StaffCreated{User: a.User, Text: a.Text, Role: a.Role}, true
	case EventPasswordChanged:
		return PasswordChanged{User: a.User, Text: a.Text}, true
	case EventPlayerBlocked:
		return PlayerBlocked{User: a.User, Memo: a.Memo, Text: a.Text, By: a.By}, true
	case EventPlayerUnblocked:
		return PlayerUnblocked{User: a.User, Memo: a.Memo, Text: a.Text, By: a.By}, true
	case EventTimeOut:
		return TimeOut{User: a.User, Text: a.Text, Days: a.Days, Until: a.Until}, true
	case EventSelfExclusion:
		return SelfExclusion{User: a.User, Text: a.Text, Days: a.Days, Until: a.Until}, true
	case EventExcludedSeen:
		return ExcludedSeen{User: a.User, Text: a.Text, Name: a.Name, Until: a.Until}, true
	case EventDeviceIssued:
		return DeviceIssued{Text: a.Text, Table: a.Table, Name: a.Name, Device: a.Device}, true
	case EventDeviceRevoked:
		return DeviceRevoked{Text: a.Text, Device: a.Device}, true
	case EventCorrectionAsked:
		return CorrectionAsked{Round: a.Round, Text: a.Text, Correction: a.Correction}, true
	case EventCorrectionApproved:
		return CorrectionApproved{Round: a.Round, Text: a.Text, Correction: a.Correction}, true
	case EventCorrectionRefused:
		return CorrectionRefused{Round: a.Round, Text: a.Text, Correction: a.Correction}, true
	case EventBuyIn:
		return BuyIn{User: a.User, Amount: a.Amount, Text: a.Text, Table: a.Table, By: a.By, Box: a.Box, Correction: a.Correction}, true
	case EventCashOut:
		return CashOut{User: a.User, Amount: a.Amount, Text: a.Text, Table: a.Table, By: a.By, Box: a.Box, Correction: a.Correction}, true
	case EventRuling:
		return Ruling{Round: a.Round, Text: a.Text, By: a.By}, true
	case EventWalletRollback:
		return WalletRollback{User: a.User, Amount: a.Amount, Memo: a.Memo, Text: a.Text, Table: a.Table}, true
	case EventWalletUndelivered:
		return WalletUndelivered{User: a.User, Amount: a.Amount, Memo: a.Memo, Text: a.Text, Table: a.Table}, true
	case EventWalletRefused:
		return WalletRefused{User: a.User, Amount: a.Amount, Memo: a.Memo, Text: a.Text, Table: a.Table}, true
	case EventWalletPaid:
		return WalletPaid{User: a.User, Amount: a.Amount, Memo: a.Memo, Text: a.Text, Table: a.Table}, true
	case EventWalletResolved:
		return WalletResolved{User: a.User, Amount: a.Amount, Memo: a.Memo, Text: a.Text, Table: a.Table, By: a.By}, true
	case EventForceCards:
		return ForceCards{Cards: a.Cards}, true
	case EventNewShoe:
		return NewShoe{Text: a.Text}, true
	case EventCloseTable:
		return CloseTable{User: a.User, Memo: a.Memo, Text: a.Text, Table: a.Table, By: a.By}, true
	case EventReopenTable:
		return ReopenTable{User: a.User, Text: a.Text}, true
	case EventVoid:
		return Void{Round: a.Round, Text: a.Text}, true
	case EventNodeJoined:
		return NodeJoined{Text: a.Text, Node: a.Node, URL: a.URL, Tables: a.Tables}, true
	case EventNodeLost:
		return NodeLost{Text: a.Text, Node: a.Node, URL: a.URL, Tables: a.Tables, At: a.At}, true
	case EventTableCreated:
		return TableCreated{Text: a.Text, Table: a.Table, Name: a.Name, Profile: a.Profile, Options: a.Options, TestMode: a.TestMode}, true
	case EventRTPOutside:
		return RTPOutside{Round: a.Round, Text: a.Text, Table: a.Table, Return: a.Return}, true
	case EventAdvantagePlay:
		return AdvantagePlay{User: a.User, Round: a.Round, Text: a.Text, Table: a.Table, Count: a.Count}, true
	case EventIndexPlay:
		return IndexPlay{User: a.User, Round: a.Round, Text: a.Text, Table: a.Table, Count: a.Count}, true
	case EventBackCounting:
		return BackCounting{User: a.User, Round: a.Round, Text: a.Text, Table: a.Table, Count: a.Count}, true
	}
	return nil, false
}

// EventTypes are a value of every significant event's type, in the order
// of Events.
var EventTypes = []Event{
	Credit{}, AdminCreated{}, StaffCreated{}, PasswordChanged{}, PlayerBlocked{}, PlayerUnblocked{}, TimeOut{}, SelfExclusion{}, ExcludedSeen{}, DeviceIssued{}, DeviceRevoked{}, CorrectionAsked{}, CorrectionApproved{}, CorrectionRefused{}, BuyIn{}, CashOut{}, Ruling{}, WalletRollback{}, WalletUndelivered{}, WalletRefused{}, WalletPaid{}, WalletResolved{}, ForceCards{}, NewShoe{}, CloseTable{}, ReopenTable{}, Void{}, NodeJoined{}, NodeLost{}, TableCreated{}, RTPOutside{}, AdvantagePlay{}, IndexPlay{}, BackCounting{},
}
