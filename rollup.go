package sabot

import (
	"context"
	"encoding/json"
	"time"

	"sabot/money"
)

// Rollups is a Store that keeps what a report summed of each table's log,
// by hour, so that a report over a long period reads hours, not rounds
// (issue 29 item 6; docs/pit.md, "Rollups"). The sums are the report's
// (internal/report), opaque to the store: a kind names them and their
// format ("tables/1"), a row holds one table's hour of them, and a mark
// per table says how far along its log they go: every record of the kinds
// summed with a Seq at or below the mark is in the rows, none above it.
type Rollups interface {
	// RollupRows returns, in one read, the marks of kind (by table; a
	// table absent has none) and its rows for the hours in [from, to) of
	// one table (0: every table), by table then hour.
	RollupRows(ctx context.Context, kind string, table int64, from, to time.Time) (map[int64]int64, []Rollup, error)
	// PutRollup writes rows of one table, each replacing the row of its
	// hour, and moves the table's mark from `from` (0: none yet) to `to`,
	// in one transaction: ECONFLICT, and nothing written, if the mark is
	// not `from` (another node rolled the table up meanwhile).
	PutRollup(ctx context.Context, kind string, table int64, from, to int64, rows []Rollup) error
	// HouseNets returns the house's net (AccountHouse, owner 0) through
	// each of a table's settle and void records with a Seq in (after,
	// upTo], by Seq: what LedgerReader.RoundNets sums, record by record.
	HouseNets(ctx context.Context, table int64, after, upTo int64) (map[int64]money.Amount, error)
}

// Rollup is one table's hour of a report's sums.
type Rollup struct {
	TableID int64
	Hour    time.Time // the hour's start, UTC, on the hour
	Data    json.RawMessage
}
