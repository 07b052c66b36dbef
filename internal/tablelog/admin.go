package tablelog

import "sabot/money"

// Names of the significant events (sabot.LogAdmin records, a
// wire.AdminEvent's Event) that a server writes. They are stored: a name
// is never changed, and an event whose values change shape is a new
// name. Each has its words in recall's registry of events, checked at its
// start; Events lists them.
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

// AdminMoney is what the reports read of a significant event (a
// wire.AdminEvent's fields): its name, whom it concerns and its amount.
type AdminMoney struct {
	Event  string       `json:"event"`
	User   string       `json:"user"`
	Amount money.Amount `json:"amount"`
}

// ConfigureOptions is what the reports read of a configuration change
// (sabot.LogConfigure): the options in force from then on.
type ConfigureOptions struct {
	Options map[string]string `json:"options"`
}
