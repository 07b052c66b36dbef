package sqlstore

import (
	"context"
	"math/rand/v2"
	"time"
)

// Throttle buckets in the database, shared by every node: a
// bucket of burst attempts that gains one each interval is the time at
// which it is full again, refill. At now it holds burst - (refill-now)/every
// attempts (burst when refill is past); an attempt is allowed while it holds
// one, and moves refill one interval on. The clock is the database's where
// the driver names it, as the leases'.

// ThrottleWait returns how long bucket must wait for its next attempt (0:
// none), and takes nothing.
func (s *Store) ThrottleWait(ctx context.Context, bucket string, burst int, every time.Duration) (time.Duration, error) {
	var wait time.Duration
	err := s.read(ctx, func(tx Tx) error {
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		var refill int64
		if err := tx.QueryRow(ctx, `SELECT refill FROM throttles WHERE bucket = $1`, bucket).Scan(&refill); noRows(err) {
			return nil
		} else if err != nil {
			return err
		}
		if d := time.Duration(refill-now)*time.Microsecond - time.Duration(burst-1)*every; d > 0 {
			wait = d
		}
		return nil
	})
	return wait, fail(err)
}

// ThrottleCharge counts an attempt of bucket, if it has one left.
func (s *Store) ThrottleCharge(ctx context.Context, bucket string, burst int, every time.Duration) error {
	return fail(s.write(ctx, func(tx Tx) error {
		now, err := s.dbNow(ctx, tx)
		if err != nil {
			return err
		}
		step, room := every.Microseconds(), int64(burst-1)*every.Microseconds()
		if _, err := tx.Exec(ctx, `INSERT INTO throttles (bucket, refill) VALUES ($1, $3)
			ON CONFLICT (bucket) DO UPDATE SET refill = CASE WHEN throttles.refill > $2 THEN throttles.refill ELSE $2 END + $4
			WHERE throttles.refill - $2 <= $5`, bucket, now, now+step, step, room); err != nil {
			return err
		}
		if rand.IntN(256) == 0 { // buckets full again are forgotten, now and then
			_, err = tx.Exec(ctx, `DELETE FROM throttles WHERE refill < $1`, now)
		}
		return err
	}))
}
