package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"sabot"
	"sabot/money"
)

// The outbox of the calls to the operator's wallet (sabot.Outbox, issue
// 14; docs/wallet.md).

const callColumns = `id, table_id, seq, op, player, user_id, round, amount, kind, reference, state, counted,
	attempts, next_try, answer, created, answered, game, session, round_closed, retry_of, next_retry, resolved,
	resolved_by, resolved_at`

// maxCallID bounds a transaction ID, and a player's operator ID.
const maxCallID = 128

// checkCalls refuses calls that cannot be written (EINVALID), before any
// statement runs.
func checkCalls(rec *sabot.LogAppend) error {
	seen := map[string]bool{}
	for _, c := range rec.Calls {
		switch {
		case c.ID == "" || len(c.ID) > maxCallID:
			return sabot.Errorf(sabot.EINVALID, "a wallet call needs a transaction ID of 1 to %d bytes", maxCallID)
		case seen[c.ID]:
			return sabot.Errorf(sabot.EINVALID, "the %s record holds the wallet call %s twice", rec.Kind, c.ID)
		case c.Op != "debit" && c.Op != "credit" && c.Op != "rollback":
			return sabot.Errorf(sabot.EINVALID, "wallet call %s: no operation %q", c.ID, c.Op)
		case c.Player == "" || len(c.Player) > maxCallID:
			return sabot.Errorf(sabot.EINVALID, "wallet call %s needs the operator's ID of its player", c.ID)
		case c.Amount < 0 || !c.Amount.Valid():
			return sabot.Errorf(sabot.EINVALID, "wallet call %s: an amount of %d minor units", c.ID, c.Amount)
		case c.Op == "rollback" && c.Reference == "":
			return sabot.Errorf(sabot.EINVALID, "wallet call %s: a rollback names its debit", c.ID)
		}
		seen[c.ID] = true
	}
	for _, id := range rec.Counts {
		if id == "" {
			return sabot.Errorf(sabot.EINVALID, "the %s record counts a debit with no transaction ID", rec.Kind)
		}
	}
	return nil
}

// writeCalls writes a record's calls to the outbox and counts its debits,
// in the record's transaction (appendTx), after the record itself.
func writeCalls(ctx context.Context, tx Tx, rec *sabot.LogAppend, seq int64, at time.Time) error {
	for _, c := range rec.Calls {
		table := rec.TableID
		if c.TableID != 0 {
			table = c.TableID // a call of a table written in the significant-event log
		}
		n, err := tx.Exec(ctx, `INSERT INTO wallet_calls (id, table_id, seq, op, player, user_id, round, amount, kind, reference,
			state, counted, attempts, next_try, created, game, session, round_closed)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', FALSE, 0, $11, $11, $12, $13, $14)
			ON CONFLICT DO NOTHING`,
			c.ID, table, seq, c.Op, c.Player, c.UserID, c.Round, int64(c.Amount), c.Kind, c.Reference, stamp(at),
			c.Game, c.Session, c.RoundClosed)
		if err != nil {
			return err
		} else if n == 0 {
			return sabot.Errorf(sabot.ECONFLICT, "refused: the wallet call %s is in the outbox already", c.ID)
		}
	}
	for _, id := range rec.Counts {
		n, err := tx.Exec(ctx, `UPDATE wallet_calls SET counted = TRUE WHERE id = $1 AND op = 'debit' AND state = 'ok' AND NOT counted`, id)
		if err != nil {
			return err
		} else if n == 0 {
			return sabot.Errorf(sabot.ECONFLICT, "refused: the debit %s is not acknowledged, or its money is staked already", id)
		}
	}
	return nil
}

// ClaimCalls takes up to n pending credits and rollbacks due at now, in the
// order they were written, and moves their next try to now + lease.
func (s *Store) ClaimCalls(ctx context.Context, now time.Time, n int, lease time.Duration) ([]*sabot.WalletCall, error) {
	if n <= 0 {
		return nil, nil
	}
	var calls []*sabot.WalletCall
	err := s.write(ctx, func(tx Tx) (err error) {
		// The row locks of PostgreSQL's UPDATE serialize two claims of a
		// row: the second sees next_try moved and leaves it. SQLite has one
		// writer.
		calls, err = queryCalls(ctx, tx, `UPDATE wallet_calls SET next_try = $2, attempts = attempts + 1
			WHERE id IN (SELECT id FROM wallet_calls WHERE state = 'pending' AND op <> 'debit' AND next_try <= $1
				ORDER BY next_try, created, id LIMIT $3)
			AND state = 'pending' AND next_try <= $1
			RETURNING `+callColumns, stamp(now), stamp(now.Add(lease)), n)
		return err
	})
	if err != nil {
		return nil, fail(err)
	}
	sortCalls(calls)
	return calls, nil
}

// sortCalls puts calls in the order they were written (RETURNING gives
// none).
func sortCalls(cs []*sabot.WalletCall) {
	slices.SortFunc(cs, func(a, b *sabot.WalletCall) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// AnswerCall writes a call's answer, or its next try (CallPending).
func (s *Store) AnswerCall(ctx context.Context, id, state string, answer json.RawMessage, at, retry time.Time) error {
	switch state {
	case sabot.CallPending, sabot.CallOK, sabot.CallRefused, sabot.CallLapsed:
	default:
		return sabot.Errorf(sabot.EINVALID, "no wallet call state %q", state)
	}
	if len(answer) > 0 && !json.Valid(answer) {
		return sabot.Errorf(sabot.EINVALID, "wallet call %s: the answer is not JSON", id)
	}
	var ans any
	if len(answer) > 0 {
		ans = string(answer)
	}
	err := s.write(ctx, func(tx Tx) error {
		var n int64
		var err error
		if state == sabot.CallPending {
			n, err = tx.Exec(ctx, `UPDATE wallet_calls SET next_try = $2 WHERE id = $1 AND state = 'pending'`, id, stamp(retry))
		} else {
			n, err = tx.Exec(ctx, `UPDATE wallet_calls SET state = $2, answer = $3, answered = $4 WHERE id = $1 AND state = 'pending'`,
				id, state, ans, stamp(at))
		}
		if err != nil || n == 1 {
			return err
		}
		var found int64
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM wallet_calls WHERE id = $1`, id).Scan(&found); err != nil {
			return err
		} else if found == 0 {
			return sabot.Errorf(sabot.ENOTFOUND, "no wallet call %s", id)
		}
		return nil // answered already: the first answer stands
	})
	return fail(err)
}

// Calls returns the calls a query selects, in the order they were written.
func (s *Store) Calls(ctx context.Context, q sabot.CallQuery) ([]*sabot.WalletCall, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if q.ID != "" {
		where = append(where, "id = "+arg(q.ID))
	}
	if q.Round != "" {
		where = append(where, "round = "+arg(q.Round))
	}
	if q.TableID != 0 {
		where = append(where, "table_id = "+arg(q.TableID))
	}
	if q.Op != "" {
		where = append(where, "op = "+arg(q.Op))
	}
	if len(q.States) > 0 {
		var in []string
		for _, st := range q.States {
			in = append(in, arg(st))
		}
		where = append(where, "state IN ("+strings.Join(in, ", ")+")")
	}
	if q.Uncounted {
		where = append(where, "op = 'debit' AND NOT counted")
	}
	if !q.Since.IsZero() {
		where = append(where, "created >= "+arg(stamp(q.Since)))
	}
	if !q.Until.IsZero() {
		where = append(where, "created < "+arg(stamp(q.Until)))
	}
	query := `SELECT ` + callColumns + ` FROM wallet_calls`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	query += ` ORDER BY created, id`
	if q.Limit > 0 {
		query += ` LIMIT ` + arg(q.Limit)
	}
	var calls []*sabot.WalletCall
	err := s.read(ctx, func(tx Tx) (err error) {
		calls, err = queryCalls(ctx, tx, query, args...)
		return err
	})
	if err != nil {
		return nil, fail(err)
	}
	return calls, nil
}

// queryCalls runs a query that returns calls.
func queryCalls(ctx context.Context, tx Tx, query string, args ...any) ([]*sabot.WalletCall, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var calls []*sabot.WalletCall
	for rows.Next() {
		c, err := scanCall(rows)
		if err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	return calls, rows.Err()
}

func scanCall(row Row) (*sabot.WalletCall, error) {
	var c sabot.WalletCall
	var amount, next, created, answered, nextRetry, resolvedAt int64
	var answer sql.NullString
	if err := row.Scan(&c.ID, &c.TableID, &c.Seq, &c.Op, &c.Player, &c.UserID, &c.Round, &amount, &c.Kind, &c.Reference,
		&c.State, &c.Counted, &c.Attempts, &next, &answer, &created, &answered, &c.Game, &c.Session, &c.RoundClosed,
		&c.RetryOf, &nextRetry, &c.Resolved, &c.ResolvedBy, &resolvedAt); err != nil {
		return nil, err
	}
	if nextRetry != 0 {
		c.NextRetry = unstamp(nextRetry)
	}
	if resolvedAt != 0 {
		c.ResolvedAt = unstamp(resolvedAt)
	}
	c.Amount = money.Amount(amount)
	c.NextTry, c.Created = unstamp(next), unstamp(created)
	if answered != 0 {
		c.Answered = unstamp(answered)
	}
	if answer.Valid {
		c.Answer = json.RawMessage(answer.String)
	}
	return &c, nil
}

// OperatorUser returns the player of an operator's ID, creating him the
// first time.
func (s *Store) OperatorUser(ctx context.Context, operatorID, name string) (*sabot.User, error) {
	if operatorID == "" || len(operatorID) > maxCallID {
		return nil, sabot.Errorf(sabot.EINVALID, "an operator's player ID is 1 to %d bytes", maxCallID)
	}
	if u, err := s.user(ctx, `SELECT `+userColumns+` FROM users WHERE operator_id = $1`, operatorID); err == nil {
		return u, nil
	} else if sabot.ErrorCode(err) != sabot.ENOTFOUND {
		return nil, err
	}
	u := &sabot.User{Name: name, OperatorID: operatorID}
	err := s.CreateUser(ctx, u)
	if sabot.ErrorCode(err) == sabot.ECONFLICT {
		// Created a moment ago by the same player's other launch, or the
		// name is someone else's.
		if v, err := s.user(ctx, `SELECT `+userColumns+` FROM users WHERE operator_id = $1`, operatorID); err == nil {
			return v, nil
		}
		return nil, err
	} else if err != nil {
		return nil, err
	}
	return u, nil
}

// UseLaunchToken records a launch token's first use.
func (s *Store) UseLaunchToken(ctx context.Context, hash string, userID int64, session string, at time.Time) error {
	err := s.write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `INSERT INTO launch_tokens (hash, user_id, session, created) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			hash, userID, session, stamp(at))
		if err == nil && n == 0 {
			return sabot.Errorf(sabot.ECONFLICT, "refused: this launch token opened a game session already; the operator's site issues a new one for each launch")
		}
		return err
	})
	return fail(err)
}

// LaunchSession is a user's latest game session.
func (s *Store) LaunchSession(ctx context.Context, userID int64) (string, error) {
	var session string
	err := s.read(ctx, func(tx Tx) error {
		err := tx.QueryRow(ctx, `SELECT session FROM launch_tokens WHERE user_id = $1 ORDER BY created DESC, hash LIMIT 1`, userID).Scan(&session)
		if noRows(err) {
			return nil
		}
		return err
	})
	return session, fail(err)
}

// owedWhere selects the calls owed: credits and rollbacks refused, not
// sent again with success, not resolved.
const owedWhere = `w.state = 'refused' AND w.op <> 'debit' AND w.retry_of = '' AND w.resolved = ''
	AND NOT EXISTS (SELECT 1 FROM wallet_calls r WHERE r.retry_of = w.id AND r.state = 'ok')`

// Owed returns the calls owed, in the order they were written.
func (s *Store) Owed(ctx context.Context) ([]*sabot.WalletCall, error) {
	var calls []*sabot.WalletCall
	err := s.read(ctx, func(tx Tx) (err error) {
		calls, err = queryCalls(ctx, tx, `SELECT `+prefixed("w.", callColumns)+` FROM wallet_calls w WHERE `+owedWhere+` ORDER BY w.created, w.id`)
		if err != nil {
			return err
		}
		for _, c := range calls {
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM wallet_calls WHERE retry_of = $1`, c.ID).Scan(&c.Retries); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fail(err)
	}
	return calls, nil
}

// prefixed qualifies each of a list of columns.
func prefixed(p, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// RetryOwed writes the calls that send again the calls owed due at now.
func (s *Store) RetryOwed(ctx context.Context, now time.Time) ([]*sabot.WalletCall, error) {
	var out []*sabot.WalletCall
	err := s.write(ctx, func(tx Tx) error {
		out = nil
		due, err := queryCalls(ctx, tx, `SELECT `+prefixed("w.", callColumns)+` FROM wallet_calls w WHERE `+owedWhere+`
			AND w.next_retry <> 0 AND w.next_retry <= $1
			AND NOT EXISTS (SELECT 1 FROM wallet_calls r WHERE r.retry_of = w.id AND r.state = 'pending')
			ORDER BY w.created, w.id`, stamp(now))
		if err != nil {
			return err
		}
		for _, c := range due {
			// The root's row first: its lock orders this with a resolution
			// by hand (ResolveOwed), which takes it first too.
			if n, err := tx.Exec(ctx, `UPDATE wallet_calls SET next_retry = 0 WHERE id = $1 AND resolved = '' AND next_retry <> 0`, c.ID); err != nil {
				return err
			} else if n == 0 {
				continue // resolved, or sent again by another node, meanwhile
			}
			var sent int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM wallet_calls WHERE retry_of = $1`, c.ID).Scan(&sent); err != nil {
				return err
			}
			// The root's ID and the try: "-2" for the first sent again. A
			// transaction ID stays within 64 bytes (the root's are at most
			// 40).
			r := *c
			r.ID, r.RetryOf, r.Seq = c.ID+"-"+strconv.Itoa(sent+2), c.ID, c.Seq
			r.State, r.Counted, r.Attempts, r.Answer, r.NextTry, r.Created, r.Answered = sabot.CallPending, false, 0, nil, now, now, time.Time{}
			r.NextRetry, r.Resolved, r.ResolvedBy, r.ResolvedAt = time.Time{}, "", "", time.Time{}
			n, err := tx.Exec(ctx, `INSERT INTO wallet_calls (id, table_id, seq, op, player, user_id, round, amount, kind, reference,
				state, counted, attempts, next_try, created, game, session, round_closed, retry_of)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', FALSE, 0, $11, $11, $12, $13, $14, $15)
				ON CONFLICT DO NOTHING`,
				r.ID, r.TableID, r.Seq, r.Op, r.Player, r.UserID, r.Round, int64(r.Amount), r.Kind, r.Reference, stamp(now),
				r.Game, r.Session, r.RoundClosed, r.RetryOf)
			if err != nil {
				return err
			} else if n == 0 {
				continue // another node's deliverer wrote it a moment ago
			}
			out = append(out, &r)
		}
		return nil
	})
	if err != nil {
		return nil, fail(err)
	}
	return out, nil
}

// ScheduleRetry sets when a call owed (or the call it sends again) is sent
// again.
func (s *Store) ScheduleRetry(ctx context.Context, id string, at time.Time) error {
	var next int64
	if !at.IsZero() {
		next = stamp(at)
	}
	err := s.write(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE wallet_calls SET next_retry = $2
			WHERE id = (SELECT CASE WHEN retry_of = '' THEN id ELSE retry_of END FROM wallet_calls WHERE id = $1)`, id, next)
		if err == nil && n == 0 {
			return sabot.Errorf(sabot.ENOTFOUND, "no wallet call %s", id)
		}
		return err
	})
	return fail(err)
}

// ResolveOwed closes a call owed by hand.
func (s *Store) ResolveOwed(ctx context.Context, id, reason, by string, at time.Time) error {
	if strings.TrimSpace(reason) == "" {
		return sabot.Errorf(sabot.EINVALID, "resolving money owed by hand needs a reason")
	}
	err := s.write(ctx, func(tx Tx) error {
		// The root's row first (see RetryOwed): no call sending it again
		// is written between the check below and the resolution.
		if _, err := tx.Exec(ctx, `UPDATE wallet_calls SET next_retry = 0 WHERE id = $1 AND retry_of = ''`, id); err != nil {
			return err
		}
		var pending string
		err := tx.QueryRow(ctx, `SELECT id FROM wallet_calls WHERE retry_of = $1 AND state = 'pending' LIMIT 1`, id).Scan(&pending)
		if err == nil {
			return sabot.Errorf(sabot.ECONFLICT, "refused: %s is being sent again (%s) and may pay it: resolve it once that call is answered", id, pending)
		} else if !noRows(err) {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE wallet_calls SET resolved = $2, resolved_by = $3, resolved_at = $4, next_retry = 0
			WHERE id = $1 AND id IN (SELECT w.id FROM wallet_calls w WHERE `+owedWhere+`)`, id, reason, by, stamp(at))
		if err == nil && n == 0 {
			return sabot.Errorf(sabot.ENOTFOUND, "no money owed under %s: it was paid, resolved, or never refused", id)
		}
		return err
	})
	return fail(err)
}

var _ sabot.Outbox = (*Store)(nil)
