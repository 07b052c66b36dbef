package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sabot"
)

// Several nodes on one database (sabot.Cluster).
//
// A node's lease is a row of nodes with an expiry that the node renews; a
// table's owner and epoch are columns of its row of tables. A claim takes a
// table whose owner is gone (no owner, or one whose lease expired or who
// left) and raises its epoch; a release or a node's leave raises it too.
// Every append carrying an epoch updates its table's row only where the
// epoch is still the table's (appendTx): the row lock that orders appends
// orders claims with them, so an append and a claim of one table commit one
// after the other, and an append under an epoch a claim has replaced finds
// no row and is refused (sabot.ErrFenced), however long its node was paused.
// Safety rests on the epochs alone; the clock decides only when a lease may
// be taken over, and it is the database's (Config.Clock).

var _ sabot.Cluster = (*Store)(nil)

// dbNow is the lease clock in microseconds: the database's own where the
// driver names it (Config.Clock), else this process's.
func (s *Store) dbNow(ctx context.Context, tx Tx) (int64, error) {
	if s.clockSQL == "" {
		return stamp(time.Now()), nil
	}
	var now int64
	err := tx.QueryRow(ctx, `SELECT `+s.clockSQL).Scan(&now)
	return now, err
}

func leaseLost(node string) error {
	return &sabot.Error{Code: sabot.EUNAVAILABLE, Message: fmt.Sprintf("node %s: its lease has expired", node), Cause: sabot.ErrLeaseLost}
}

// Join registers a node, its lease lasting ttl. Nodes that left or were lost
// more than a day ago and own nothing are forgotten.
func (s *Store) Join(ctx context.Context, n *sabot.Node, ttl time.Duration) error {
	if n.ID == "" || ttl <= 0 {
		return sabot.Errorf(sabot.EINVALID, "a node needs an ID and a lease of more than 0")
	}
	var now int64
	err := s.write(ctx, func(tx Tx) (err error) {
		if now, err = s.dbNow(ctx, tx); err != nil {
			return err
		}
		day := now - (24 * time.Hour).Microseconds()
		if _, err := tx.Exec(ctx, `DELETE FROM nodes WHERE expires < $1 AND NOT EXISTS (SELECT 1 FROM tables WHERE owner = nodes.id)`, day); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO nodes (id, url, started, renewed, expires) VALUES ($1, $2, $3, $3, $4)`,
			n.ID, n.URL, now, now+ttl.Microseconds())
		return err
	})
	if err != nil {
		if errors.Is(err, ErrUnique) {
			return sabot.Errorf(sabot.ECONFLICT, "node %s has joined already", n.ID)
		}
		return fail(err)
	}
	n.Started, n.Renewed, n.Expires, n.Live = unstamp(now), unstamp(now), unstamp(now+ttl.Microseconds()), true
	return nil
}

// Renew extends a live node's lease by ttl from now.
func (s *Store) Renew(ctx context.Context, node string, ttl time.Duration) error {
	var n int64
	err := s.write(ctx, func(tx Tx) error {
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		n, err = tx.Exec(ctx, `UPDATE nodes SET renewed = $2, expires = $3 WHERE id = $1 AND expires >= $2 AND left_at = 0`,
			node, now, now+ttl.Microseconds())
		return err
	})
	if err != nil {
		return fail(err)
	} else if n == 0 {
		return leaseLost(node)
	}
	return nil
}

// Drain marks a node as handing its tables over.
func (s *Store) Drain(ctx context.Context, node string) error {
	err := s.write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `UPDATE nodes SET draining = TRUE WHERE id = $1`, node)
		return err
	})
	return fail(err)
}

// Leave ends a node's lease and frees its tables, each under a new epoch.
func (s *Store) Leave(ctx context.Context, node string) error {
	err := s.write(ctx, func(tx Tx) error {
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE tables SET owner = '', epoch = epoch + 1 WHERE owner = $1`, node); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE nodes SET left_at = $2, expires = $2 WHERE id = $1 AND left_at = 0`, node, now)
		return err
	})
	return fail(err)
}

// live is the condition "node ID is live at $now", for a node id column or
// parameter.
func live(id, now string) string {
	return `EXISTS (SELECT 1 FROM nodes WHERE nodes.id = ` + id + ` AND nodes.expires >= ` + now + ` AND nodes.left_at = 0)`
}

// Claim makes a live node the owner of a table whose owner is gone.
func (s *Store) Claim(ctx context.Context, node string, table int64) (int64, error) {
	var epoch int64
	var why error
	err := s.write(ctx, func(tx Tx) error {
		why = nil
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `UPDATE tables SET owner = $1, epoch = epoch + 1
			WHERE id = $2 AND profile <> '' AND (owner = '' OR NOT `+live("tables.owner", "$3")+`)
			AND `+live("$1", "$3")+` RETURNING epoch`, node, table, now).Scan(&epoch)
		if !noRows(err) {
			return err
		}
		// Why not: the claimant, the table, or its owner.
		var ok bool
		if err := tx.QueryRow(ctx, `SELECT `+live("$1", "$2"), node, now).Scan(&ok); err != nil {
			return err
		} else if !ok {
			why = leaseLost(node)
			return nil
		}
		var owner string
		if err := tx.QueryRow(ctx, `SELECT owner FROM tables WHERE id = $1 AND profile <> ''`, table).Scan(&owner); noRows(err) {
			why = sabot.Errorf(sabot.ENOTFOUND, "no table %d", table)
			return nil
		} else if err != nil {
			return err
		}
		why = sabot.Errorf(sabot.ECONFLICT, "table %d is owned by node %s", table, owner)
		return nil
	})
	if err != nil {
		return 0, fail(err)
	} else if why != nil {
		return 0, why
	}
	return epoch, nil
}

// Release frees a table a node owns at an epoch, under the next epoch: an
// append still on its way from the node is refused.
func (s *Store) Release(ctx context.Context, node string, table, epoch int64) error {
	var n int64
	err := s.write(ctx, func(tx Tx) (err error) {
		n, err = tx.Exec(ctx, `UPDATE tables SET owner = '', epoch = epoch + 1 WHERE id = $1 AND owner = $2 AND epoch = $3`, table, node, epoch)
		return err
	})
	if err != nil {
		return fail(err)
	} else if n == 0 {
		return sabot.Errorf(sabot.ECONFLICT, "node %s does not own table %d at epoch %d", node, table, epoch)
	}
	return nil
}

// Nodes lists the nodes, the first to join first.
func (s *Store) Nodes(ctx context.Context) ([]sabot.Node, error) {
	var out []sabot.Node
	err := s.read(ctx, func(tx Tx) error {
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT id, url, started, renewed, expires, left_at, lost, draining FROM nodes ORDER BY started, id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n sabot.Node
			var started, renewed, expires, left int64
			if err := rows.Scan(&n.ID, &n.URL, &started, &renewed, &expires, &left, &n.Lost, &n.Draining); err != nil {
				return err
			}
			n.Started, n.Renewed, n.Expires = unstamp(started), unstamp(renewed), unstamp(expires)
			n.Left, n.Live = left != 0, left == 0 && expires >= now
			out = append(out, n)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
}

// Leases lists every served table's owner and epoch, by table.
func (s *Store) Leases(ctx context.Context) ([]sabot.Lease, error) {
	var out []sabot.Lease
	err := s.read(ctx, func(tx Tx) error {
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT id, owner, epoch, owner <> '' AND `+live("tables.owner", "$1")+`
			FROM tables WHERE profile <> '' ORDER BY id`, now)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var l sabot.Lease
			if err := rows.Scan(&l.TableID, &l.Node, &l.Epoch, &l.Live); err != nil {
				return err
			}
			out = append(out, l)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
}

// NodeLost marks a node whose lease expired, while it had not left, as
// lost: true for the one call that did.
func (s *Store) NodeLost(ctx context.Context, node string) (bool, error) {
	var n int64
	err := s.write(ctx, func(tx Tx) error {
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		n, err = tx.Exec(ctx, `UPDATE nodes SET lost = TRUE WHERE id = $1 AND expires < $2 AND left_at = 0 AND NOT lost`, node, now)
		return err
	})
	if err != nil {
		return false, fail(err)
	}
	return n == 1, nil
}
