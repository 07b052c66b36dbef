-- Throttle buckets that every node counts in (issue 25: the failed-login
-- throttles, which each node kept in its memory, so that N nodes gave N
-- times the guesses). A bucket of burst attempts, one more each interval,
-- is the time it is full again (refill, microseconds, the database's
-- clock): an attempt is allowed while refill - now <= (burst-1) × interval
-- and moves refill one interval on (sqlstore/throttle.go).
CREATE TABLE throttles (
	bucket TEXT   PRIMARY KEY,
	refill BIGINT NOT NULL
);
