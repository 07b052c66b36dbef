package sqlstore

import (
	"context"
	"crypto/sha256"
	"strings"
	"time"

	"sabot"
	"sabot/money"
)

// Responsible gaming on the built-in wallets (sabot.Care).

var _ sabot.Care = (*Store)(nil)

// DefaultRealityMinutes is a player's reality check until he sets one.
const DefaultRealityMinutes = 60

func (s *Store) Limits(ctx context.Context, userID int64) ([]sabot.Limit, error) {
	var out []sabot.Limit
	err := s.read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT kind, period, amount, pending, pending_from, set_at FROM care_limits WHERE user_id = $1 ORDER BY kind, period`, userID)
		if err != nil {
			return err
		}
		out, err = scanLimits(rows)
		return err
	})
	return out, fail(err)
}

func scanLimits(rows Rows) ([]sabot.Limit, error) {
	defer rows.Close()
	var out []sabot.Limit
	for rows.Next() {
		var l sabot.Limit
		var amount, pending, from, set int64
		if err := rows.Scan(&l.Kind, &l.Period, &amount, &pending, &from, &set); err != nil {
			return nil, err
		}
		l.Amount, l.Pending = money.Amount(amount), money.Amount(pending)
		if from != 0 {
			l.PendingFrom = unstamp(from)
		}
		l.SetAt = unstamp(set)
		out = append(out, l)
	}
	return out, rows.Err()
}

func (s *Store) PutLimit(ctx context.Context, userID int64, l sabot.Limit) error {
	var from int64
	if !l.PendingFrom.IsZero() {
		from = stamp(l.PendingFrom)
	}
	err := s.write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO care_limits (user_id, kind, period, amount, pending, pending_from, set_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (user_id, kind, period) DO UPDATE SET amount = excluded.amount, pending = excluded.pending, pending_from = excluded.pending_from, set_at = excluded.set_at`,
			userID, l.Kind, l.Period, int64(l.Amount), int64(l.Pending), from, stamp(s.clock(l.SetAt)))
		return err
	})
	return fail(err)
}

func (s *Store) DeleteLimit(ctx context.Context, userID int64, kind, period string) error {
	err := s.write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM care_limits WHERE user_id = $1 AND kind = $2 AND period = $3`, userID, kind, period)
		return err
	})
	return fail(err)
}

func (s *Store) CareOf(ctx context.Context, userID int64) (*sabot.PlayerCare, error) {
	c := &sabot.PlayerCare{RealityMinutes: DefaultRealityMinutes}
	err := s.read(ctx, func(tx Tx) error {
		var from, until, blockedAt int64
		err := tx.QueryRow(ctx, `SELECT reality_minutes, exclusion, excluded_from, excluded_until, blocked, blocked_at FROM care_players WHERE user_id = $1`, userID).
			Scan(&c.RealityMinutes, &c.Exclusion, &from, &until, &c.Blocked, &blockedAt)
		if noRows(err) {
			return nil
		} else if err != nil {
			return err
		}
		if until != 0 {
			c.ExcludedFrom, c.ExcludedUntil = unstamp(from), unstamp(until)
		}
		if c.Blocked != "" {
			c.BlockedAt = unstamp(blockedAt)
		}
		return nil
	})
	return c, fail(err)
}

func (s *Store) PutCare(ctx context.Context, userID int64, c sabot.PlayerCare) error {
	var from, until int64
	if !c.ExcludedUntil.IsZero() {
		from, until = stamp(c.ExcludedFrom), stamp(c.ExcludedUntil)
	}
	err := s.write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO care_players (user_id, reality_minutes, exclusion, excluded_from, excluded_until) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (user_id) DO UPDATE SET reality_minutes = excluded.reality_minutes, exclusion = excluded.exclusion, excluded_from = excluded.excluded_from, excluded_until = excluded.excluded_until`,
			userID, c.RealityMinutes, c.Exclusion, from, until)
		return err
	})
	return fail(err)
}

func (s *Store) SetBlock(ctx context.Context, userID int64, reason string, at time.Time) error {
	var when int64
	if reason != "" {
		when = stamp(s.clock(at))
	}
	err := s.write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO care_players (user_id, blocked, blocked_at) VALUES ($1, $2, $3)
			ON CONFLICT (user_id) DO UPDATE SET blocked = excluded.blocked, blocked_at = excluded.blocked_at`,
			userID, reason, when)
		return err
	})
	return fail(err)
}

// Usage reads the player's wallet entries since a time. A transaction a
// table of play wrote (one with a profile) is play: its entries are the
// stakes put down and returned unplayed, except a round's settlement (memo
// "round N…"), which is what the stakes came back as; every other credit
// (the pit's, the welcome credit: the significant-event log's) is a
// deposit.
func (s *Store) Usage(ctx context.Context, userID int64, since time.Time) (sabot.Usage, error) {
	var u sabot.Usage
	err := s.read(ctx, func(tx Tx) (err error) {
		u, err = usage(ctx, tx, userID, since)
		return err
	})
	return u, fail(err)
}

func usage(ctx context.Context, tx Tx, userID int64, since time.Time) (sabot.Usage, error) {
	var credited, staked, net int64
	err := tx.QueryRow(ctx, `SELECT
				COALESCE(SUM(CASE WHEN COALESCE(tb.profile, '') = '' AND e.amount > 0 THEN e.amount ELSE 0 END), 0),
				COALESCE(SUM(CASE WHEN COALESCE(tb.profile, '') <> '' AND e.memo NOT LIKE 'round %' THEN -e.amount ELSE 0 END), 0),
				COALESCE(SUM(CASE WHEN COALESCE(tb.profile, '') <> '' THEN e.amount ELSE 0 END), 0)
			FROM entries e
			JOIN accounts a ON a.id = e.account_id AND a.kind = 'wallet' AND a.owner_id = $1
			JOIN transactions t ON t.id = e.transaction_id
			LEFT JOIN tables tb ON tb.id = t.table_id
			WHERE e.created >= $2`, userID, stamp(since)).Scan(&credited, &staked, &net)
	return sabot.Usage{Credited: money.Amount(credited), Staked: money.Amount(staked), Net: money.Amount(net)}, err
}

// guard reads a stake's eligibility in its transaction (sabot.StakeGuard):
// one statement when the player has no limits. Run after the stake's
// postings, which hold the player's wallet row: under READ COMMITTED each
// statement here sees every stake of his committed before that lock was
// granted, and none can commit beside this one.
func (s *Store) guard(ctx context.Context, tx Tx, g *sabot.StakeGuard, at time.Time) error {
	var sessions, limits, from, until int64
	e := sabot.Eligibility{Care: sabot.PlayerCare{RealityMinutes: DefaultRealityMinutes}}
	// One statement, the player's care row read once (a stake's
	// transaction is the group commit's: every statement here delays the
	// decisions committed with it).
	err := tx.QueryRow(ctx, `SELECT
			(SELECT COUNT(*) FROM sessions WHERE token_hash = $1),
			COALESCE(c.exclusion, ''), COALESCE(c.excluded_from, 0), COALESCE(c.excluded_until, 0), COALESCE(c.blocked, ''),
			(SELECT COUNT(*) FROM care_limits WHERE user_id = $2)
		FROM (SELECT 1 AS one) AS x LEFT JOIN care_players c ON c.user_id = $2`,
		tokenHash(g.Session), g.UserID).Scan(&sessions, &e.Care.Exclusion, &from, &until, &e.Care.Blocked, &limits)
	if err != nil {
		return err
	}
	e.SessionLive = g.Session == "" || sessions > 0
	if until != 0 {
		e.Care.ExcludedFrom, e.Care.ExcludedUntil = unstamp(from), unstamp(until)
	}
	if limits > 0 {
		rows, err := tx.Query(ctx, `SELECT kind, period, amount, pending, pending_from, set_at FROM care_limits WHERE user_id = $1 ORDER BY kind, period`, g.UserID)
		if err != nil {
			return err
		}
		e.Limits, err = scanLimits(rows)
		if err != nil {
			return err
		}
	}
	e.Usage = func(since time.Time) (sabot.Usage, error) { return usage(ctx, tx, g.UserID, since) }
	if g.Check == nil {
		return nil
	}
	return g.Check(e)
}

func (s *Store) EndSessions(ctx context.Context, userID int64) (int, error) {
	var n int64
	err := s.write(ctx, func(tx Tx) (err error) {
		n, err = tx.Exec(ctx, `DELETE FROM sessions WHERE user_id = $1`, userID)
		return err
	})
	return int(n), fail(err)
}

func (s *Store) LiveSessions(ctx context.Context, userID int64, since time.Time) (int, error) {
	var n int
	err := s.read(ctx, func(tx Tx) error {
		return tx.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = $1 AND last_seen >= $2`, userID, stamp(since)).Scan(&n)
	})
	return n, fail(err)
}

func (s *Store) SweepSessions(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.write(ctx, func(tx Tx) (err error) {
		n, err = tx.Exec(ctx, `DELETE FROM sessions WHERE last_seen < $1`, stamp(before))
		return err
	})
	return int(n), fail(err)
}

func (s *Store) Seen(ctx context.Context, userID int64, marks []string, at time.Time) ([]sabot.Sighting, error) {
	var out []sabot.Sighting
	err := s.write(ctx, func(tx Tx) error {
		out = out[:0]
		for _, m := range marks {
			kind, _, _ := strings.Cut(m, ":")
			h := sha256.Sum256([]byte(m))
			if _, err := tx.Exec(ctx, `INSERT INTO care_seen (mark, user_id, seen_at) VALUES ($1, $2, $3)
				ON CONFLICT (mark, user_id) DO UPDATE SET seen_at = excluded.seen_at`, h[:], userID, stamp(at)); err != nil {
				return err
			}
			// A player under an exclusion in force, or blocked by the pit
			// (Exclusion "blocked", no end).
			rows, err := tx.Query(ctx, `SELECT u.id, u.name, CASE WHEN c.blocked <> '' THEN 'blocked' ELSE c.exclusion END,
					CASE WHEN c.blocked <> '' THEN 0 ELSE c.excluded_until END FROM care_seen s
				JOIN care_players c ON c.user_id = s.user_id JOIN users u ON u.id = s.user_id
				WHERE s.mark = $1 AND s.user_id <> $2 AND (c.blocked <> '' OR c.exclusion <> '' AND c.excluded_until > $3) ORDER BY u.id`, h[:], userID, stamp(at))
			if err != nil {
				return err
			}
			for rows.Next() {
				x := sabot.Sighting{Mark: kind}
				var until int64
				if err := rows.Scan(&x.UserID, &x.Name, &x.Exclusion, &until); err != nil {
					rows.Close()
					return err
				}
				if until != 0 {
					x.Until = unstamp(until)
				}
				out = append(out, x)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		// His latest marks only.
		_, err := tx.Exec(ctx, `DELETE FROM care_seen WHERE user_id = $1 AND mark NOT IN
			(SELECT mark FROM care_seen WHERE user_id = $1 ORDER BY seen_at DESC, mark LIMIT $2)`, userID, sabot.MaxSeenMarks)
		return err
	})
	return out, fail(err)
}
