package sabot

import (
	"context"
	"time"

	"sabot/money"
)

// LedgerNet is what the ledger's entries did to the accounts of one kind
// and owner through the transactions of one table's settle and void records
// (the rounds it closed) in a period (the pit's reports set the
// win they read from the log against it).
type LedgerNet struct {
	TableID int64
	Kind    string // an account kind: AccountHouse, AccountWallet, …
	OwnerID int64
	Net     money.Amount
}

// LedgerReader is a Store that sums its ledger by table for a report.
type LedgerReader interface {
	// RoundNets sums, per table and account, the entries of the
	// transactions written by settle and void records created in [from,
	// to).
	RoundNets(ctx context.Context, from, to time.Time) ([]LedgerNet, error)
}
