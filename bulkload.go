package sabot

import "context"

// BulkLoader is a Store that writes many log records, with their ledger
// postings, in one go: a log made or moved in bulk (`sabot report synth`,
// docs/pit.md), not a table's play, which appends a record
// at a time through Append and its group commit.
//
// BulkLoad writes the batch in one transaction, all of it or none. Each
// record takes the next Seq of its table in the order given and its Created
// (now when zero), both set in the record, as Append sets them; its Users
// are indexed and its postings, which must balance, are a transaction of
// the ledger named by the record (memo its kind), as Append writes them. The
// log and the ledger read back as if each had been appended in turn. What a
// table's play needs and a bulk load does not take is refused (EINVALID): a
// command's IDs, an epoch, wallet calls and counts, a stake's guard. The
// balances are checked once, at the end of the batch (a wallet or bank at
// or above zero, every balance within money.Max), not after each record: a
// batch whose balances end within their bounds is written even where a
// record of it would have been refused alone (EINSUFFICIENT) had it been
// appended at that point.
type BulkLoader interface {
	BulkLoad(ctx context.Context, batch []BulkAppend) error
}

// BulkAppend is one record of a BulkLoad, the users it is indexed under
// (LogAppend.Users) and its postings (none: no transaction).
type BulkAppend struct {
	Rec      *LogRecord
	Users    []int64
	Postings []Posting
}
