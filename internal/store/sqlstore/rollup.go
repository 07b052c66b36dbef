package sqlstore

import (
	"context"
	"time"

	"sabot"
	"sabot/money"
)

var _ sabot.Rollups = (*Store)(nil)

// RollupRows implements sabot.Rollups: the marks and the rows in one
// snapshot, the rows on the primary key (kind, hour, table_id).
func (s *Store) RollupRows(ctx context.Context, kind string, table int64, from, to time.Time) (map[int64]int64, []sabot.Rollup, error) {
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
		q := `SELECT table_id, hour, data FROM rollups WHERE kind = $1 AND hour >= $2 AND hour < $3`
		args := []any{kind, stamp(from), stamp(to)}
		if table != 0 {
			q += ` AND table_id = $4`
			args = append(args, table)
		}
		rs, err := tx.Query(ctx, q+` ORDER BY table_id, hour`, args...)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			var r sabot.Rollup
			var hour int64
			var data string
			if err := rs.Scan(&r.TableID, &hour, &data); err != nil {
				return err
			}
			r.Hour, r.Data = unstamp(hour), []byte(data)
			rows = append(rows, r)
		}
		return rs.Err()
	})
	if err != nil {
		return nil, nil, fail(err)
	}
	return marks, rows, nil
}

// PutRollup implements sabot.Rollups: the mark moved by a compare and set
// on its row (which PostgreSQL locks, SQLite's writer serializes), then
// the rows upserted.
func (s *Store) PutRollup(ctx context.Context, kind string, table int64, from, to int64, rows []sabot.Rollup) error {
	if from < 0 || to < from {
		return sabot.Errorf(sabot.EINVALID, "a rollup's mark moves forward from 0 or more, not from %d to %d", from, to)
	}
	for _, r := range rows {
		if r.TableID != table || !r.Hour.Equal(r.Hour.Truncate(time.Hour)) || len(r.Data) == 0 {
			return sabot.Errorf(sabot.EINVALID, "a rollup row is of table %d, on the hour, with data: not table %d at %s", table, r.TableID, r.Hour.Format(time.RFC3339Nano))
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
			if _, err := tx.Exec(ctx, `INSERT INTO rollups (kind, hour, table_id, data) VALUES ($1, $2, $3, $4)
				ON CONFLICT (kind, hour, table_id) DO UPDATE SET data = excluded.data`, kind, stamp(r.Hour), table, string(r.Data)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// HouseNets implements sabot.Rollups: the table's transactions in the seq
// range on transactions_log (migration 016), their records' kinds on the
// log's primary key.
func (s *Store) HouseNets(ctx context.Context, table int64, after, upTo int64) (map[int64]money.Amount, error) {
	out := map[int64]money.Amount{}
	err := s.read(ctx, func(tx Tx) error {
		clear(out)
		rows, err := tx.Query(ctx, `SELECT l.seq, SUM(e.amount)
			FROM transactions t
			JOIN log l ON l.table_id = t.table_id AND l.seq = t.seq
			JOIN entries e ON e.transaction_id = t.id
			JOIN accounts a ON a.id = e.account_id
			WHERE t.table_id = $1 AND t.seq > $2 AND t.seq <= $3 AND l.kind IN ('settle', 'void')
				AND a.kind = 'house' AND a.owner_id = 0
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
