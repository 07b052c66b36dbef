package sqlstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"sabot"
	"sabot/money"
)

var _ sabot.Rollups = (*Store)(nil)

// RollupRows implements sabot.Rollups: the marks and the rows in one
// snapshot, the rows on the primary key (kind, table_id, span, start_at).
func (s *Store) RollupRows(ctx context.Context, kind string, table int64, ranges ...sabot.RollupRange) (map[int64]int64, []sabot.Rollup, error) {
	for _, r := range ranges {
		if !rollupSpan(r.Span) {
			return nil, nil, sabot.Errorf(sabot.EINVALID, "a rollup's span is an hour or a day, not %v", r.Span)
		}
	}
	marks := map[int64]int64{}
	var rows []sabot.Rollup
	err := s.read(ctx, func(tx Tx) error {
		clear(marks)
		rows = rows[:0]
		ms, err := tx.Query(ctx, `SELECT table_id, seq FROM rollup_marks WHERE kind = $1`, kind)
		if err != nil {
			return err
		}
		for ms.Next() {
			var t, seq int64
			if err := ms.Scan(&t, &seq); err != nil {
				ms.Close()
				return err
			}
			marks[t] = seq
		}
		ms.Close()
		if err := ms.Err(); err != nil {
			return err
		}
		for _, r := range ranges {
			q := `SELECT table_id, start_at, data, bin FROM rollups WHERE kind = $1 AND span = $2 AND start_at >= $3 AND start_at < $4`
			args := []any{kind, int64(r.Span / time.Second), stamp(r.From), stamp(r.To)}
			if table != 0 {
				q += ` AND table_id = $5`
				args = append(args, table)
			}
			rs, err := tx.Query(ctx, q+` ORDER BY table_id, start_at`, args...)
			if err != nil {
				return err
			}
			for rs.Next() {
				x := sabot.Rollup{Span: r.Span}
				var start int64
				var data string
				var bin []byte
				if err := rs.Scan(&x.TableID, &start, &data, &bin); err != nil {
					rs.Close()
					return err
				}
				// A row is binary (bin, migration 023), or the JSON of a kind
				// before it (data, bin NULL).
				x.Start, x.Data = unstamp(start), bin
				if bin == nil {
					x.Data = []byte(data)
				}
				rows = append(rows, x)
			}
			rs.Close()
			if err := rs.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fail(err)
	}
	slices.SortFunc(rows, func(a, b sabot.Rollup) int {
		return cmp.Or(cmp.Compare(a.TableID, b.TableID), cmp.Compare(a.Span, b.Span), a.Start.Compare(b.Start))
	})
	return marks, rows, nil
}

// rollupSpan reports whether d is a span rollups keep.
func rollupSpan(d time.Duration) bool { return d == sabot.RollupHour || d == sabot.RollupDay }

// PutRollup implements sabot.Rollups: the mark moved by a compare and set
// on its row (which PostgreSQL locks, SQLite's writer serializes), then
// the rows upserted, their bytes in bin (migration 023).
func (s *Store) PutRollup(ctx context.Context, kind string, table int64, from, to int64, rows []sabot.Rollup) error {
	if from < 0 || to < from {
		return sabot.Errorf(sabot.EINVALID, "a rollup's mark moves forward from 0 or more, not from %d to %d", from, to)
	}
	for _, r := range rows {
		if r.TableID != table || !rollupSpan(r.Span) || !r.Start.Equal(r.Start.Truncate(r.Span)) || len(r.Data) == 0 {
			return sabot.Errorf(sabot.EINVALID, "a rollup row is of table %d, an hour or a day from its start, with data: not table %d, %v from %s",
				table, r.TableID, r.Span, r.Start.UTC().Format(time.RFC3339Nano))
		}
	}
	return fail(s.write(ctx, func(tx Tx) error {
		var n int64
		var err error
		if from == 0 {
			n, err = tx.Exec(ctx, `INSERT INTO rollup_marks (kind, table_id, seq) VALUES ($1, $2, $3) ON CONFLICT (kind, table_id) DO NOTHING`, kind, table, to)
		} else {
			n, err = tx.Exec(ctx, `UPDATE rollup_marks SET seq = $1 WHERE kind = $2 AND table_id = $3 AND seq = $4`, to, kind, table, from)
		}
		if err != nil {
			return err
		}
		if n != 1 {
			return sabot.Errorf(sabot.ECONFLICT, "table %d's %s rollup is no longer at seq %d: rolled up meanwhile", table, kind, from)
		}
		for _, r := range rows {
			if _, err := tx.Exec(ctx, `INSERT INTO rollups (kind, table_id, span, start_at, data, bin) VALUES ($1, $2, $3, $4, '', $5)
				ON CONFLICT (kind, table_id, span, start_at) DO UPDATE SET data = '', bin = excluded.bin`,
				kind, table, int64(r.Span/time.Second), stamp(r.Start), []byte(r.Data)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// HouseNets implements sabot.Rollups: the table's records in the seq
// range on the log's primary key, each one's transaction on
// transactions_log (migration 016) and its entries on entries_transaction.
// The planners are told so: `l.seq + 0` keeps SQLite from reading the
// transactions' index as a range for each record (the square of the
// page), `+e.account_id` from reading the house's entries, every one of
// them, for each transaction. The house is the central account and the
// tables' (sabot.IsHouse): a round settled before its table had one is on
// the central account.
func (s *Store) HouseNets(ctx context.Context, table int64, after, upTo int64) (map[int64]money.Amount, error) {
	out := map[int64]money.Amount{}
	err := s.read(ctx, func(tx Tx) error {
		clear(out)
		rows, err := tx.Query(ctx, `SELECT l.seq, SUM(e.amount)
			FROM log l
			JOIN transactions t ON t.table_id = l.table_id AND t.seq = l.seq + 0
			JOIN entries e ON e.transaction_id = t.id
			JOIN accounts a ON a.id = +e.account_id
			WHERE l.table_id = $1 AND l.seq > $2 AND l.seq <= $3 AND l.kind IN ('settle', 'void')
				AND (a.kind = 'house' AND a.owner_id = 0 OR a.kind = 'house-table')
			GROUP BY l.seq`, table, after, upTo)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var seq, net int64
			if err := rows.Scan(&seq, &net); err != nil {
				return err
			}
			out[seq] = money.Amount(net)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
}
