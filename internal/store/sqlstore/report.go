package sqlstore

import (
	"context"
	"time"

	"sabot"
	"sabot/money"
)

var _ sabot.LedgerReader = (*Store)(nil)

// RoundNets implements sabot.LedgerReader: the log's settle and void
// records of the period on log_kind_created, each one's transaction on
// transactions_log (migration 016), its entries on entries_transaction.
func (s *Store) RoundNets(ctx context.Context, from, to time.Time) ([]sabot.LedgerNet, error) {
	var out []sabot.LedgerNet
	err := s.read(ctx, func(tx Tx) error {
		out = out[:0]
		rows, err := tx.Query(ctx, `SELECT l.table_id, a.kind, a.owner_id, SUM(e.amount)
			FROM log l
			JOIN transactions t ON t.table_id = l.table_id AND t.seq = l.seq
			JOIN entries e ON e.transaction_id = t.id
			JOIN accounts a ON a.id = e.account_id
			WHERE l.kind IN ('settle', 'void') AND l.created >= $1 AND l.created < $2
			GROUP BY l.table_id, a.kind, a.owner_id
			ORDER BY l.table_id, a.kind, a.owner_id`, stamp(from), stamp(to))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n sabot.LedgerNet
			var net int64
			if err := rows.Scan(&n.TableID, &n.Kind, &n.OwnerID, &net); err != nil {
				return err
			}
			n.Net = money.Amount(net)
			out = append(out, n)
		}
		return rows.Err()
	})
	return out, fail(err)
}
