package sabot

import (
	"sabot/money"
)

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
