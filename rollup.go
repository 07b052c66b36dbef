package sabot

import (
	"context"
	"time"

	"sabot/money"
)

// Rollups is a Store that keeps what a report summed of each table's log,
// by hour and by day, so that a report over a long period reads days and
// hours, not rounds (docs/pit.md, "Rollups"). The sums are
// the report's (internal/report), opaque to the store: a kind names them
// and their format ("tables/2"), a row holds one table's hour or day of
// them, and a mark per table says how far along its log they go: every
// record of the kinds summed with a Seq at or below the mark is in the
// rows of each span, none above it.
type Rollups interface {
	// RollupRows returns, in one read, the marks of kind (by table; a
	// table absent has none) and its rows in the ranges asked (none: the
	// marks alone) of one table (0: every table), by table, span and
	// start.
	RollupRows(ctx context.Context, kind string, table int64, ranges ...RollupRange) (map[int64]int64, []Rollup, error)
	// PutRollup writes rows of one table, each replacing the row of its
	// span and start, and moves the table's mark from `from` (0: none
	// yet) to `to`, in one transaction: ECONFLICT, and nothing written,
	// if the mark is not `from` (another node rolled the table up
	// meanwhile).
	PutRollup(ctx context.Context, kind string, table int64, from, to int64, rows []Rollup) error
	// HouseNets returns the house's net (IsHouse: AccountHouse of owner 0
	// and the tables' AccountTableHouse) through
	// each of a table's settle and void records with a Seq in (after,
	// upTo], by Seq: what LedgerReader.RoundNets sums, record by record.
	HouseNets(ctx context.Context, table int64, after, upTo int64) (map[int64]money.Amount, error)
}

// The spans a rollup row sums.
const (
	RollupHour = time.Hour
	RollupDay  = 24 * time.Hour
)

// Rollup is one table's hour or day of a report's sums.
type Rollup struct {
	TableID int64
	Span    time.Duration // RollupHour or RollupDay
	Start   time.Time     // UTC, on the hour or at midnight
	Data    []byte        // the report's encoding of its sums, opaque to the store
}

// RollupRange asks for the rows of one span starting in [From, To).
type RollupRange struct {
	Span     time.Duration
	From, To time.Time
}
