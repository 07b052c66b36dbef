package tablelog

import (
	"sabot/internal/wire"
	"sabot/money"
)

// Bet places or changes a bet (sabot.LogBet), or withdraws it
// (sabot.LogBetWithdraw): Debit is what moved from the wallet
// to the table (negative when a stake was lowered).
type Bet struct {
	Player string       `json:"player"`
	Box    int          `json:"box"`
	Stake  money.Amount `json:"stake"`
	Debit  money.Amount `json:"debit"`
	// Reason says why the server withdrew a bet (a record with no command):
	// at the deal, a family bank could not cover it (FAM-01), or it stood
	// behind a box nobody played (ES-03, VE-03).
	Reason string `json:"reason,omitempty"`
}

// Decision is one decision (sabot.LogAction, sabot.LogTimeout): a player's, the dealer's closing of a
// window, or a default applied when the decision timer ran out.
type Decision struct {
	Round     int          `json:"round"`
	Action    wire.Action  `json:"action"`
	ByTimeout bool         `json:"by_timeout,omitempty"`
	Decline   bool         `json:"decline,omitempty"` // a player passes in an optional window
	Debit     money.Amount `json:"debit,omitempty"`   // the stake the decision added
	// BankCover is what moved from the bank holder's wallet to his bank
	// account to cover the stake the decision added (FAM-01).
	BankCover money.Amount `json:"bank_cover,omitempty"`
	// Follows are the back bets that followed the holder's split or double
	// (back_follow=follow: ES-03, VE-12), each bettor's matching stake
	// debited in the decision's transaction; the bettors who could not pay
	// it are the action's Stays.
	Follows []Follow `json:"follows,omitempty"`
}

// Follow is a back bettor's stake put on the holder's split or double.
type Follow struct {
	Player string       `json:"player"`
	Debit  money.Amount `json:"debit"`
}

// Configure is a change of a live table's configuration, made
// between rounds by an administrator (the pit; at a family table, what the
// players agreed, FAM-01; sabot.LogConfigure). It is a significant event of the table's log.
type Configure struct {
	Options map[string]string `json:"options"`           // the options in force from now on, on top of the profile
	Changed map[string]string `json:"changed,omitempty"` // what this change set ("": back to the profile's)
	// Bank, when set, gives a family table's bank to a seated player
	// (FAM-01: the players agree who starts), "" to the house.
	Bank *string `json:"bank,omitempty"`
	// Returned are the bets placed for the next round that the new rules
	// refuse: their stakes went back to the wallets.
	Returned []Bet  `json:"returned,omitempty"`
	NewShoe  bool   `json:"new_shoe,omitempty"` // the change prepared a new shoe (AR-24)
	Reason   string `json:"reason,omitempty"`
	By       string `json:"by"`
}

// WalletDebit is a debit asked of the operator's wallet for an operator's
// player's stake (sabot.LogWalletDebit; docs/wallet.md).
type WalletDebit struct {
	Op      string       `json:"op"`
	ID      string       `json:"id"`
	Player  string       `json:"player"`
	Amount  money.Amount `json:"amount"`
	Command string       `json:"command,omitempty"`
}
