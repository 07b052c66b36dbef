-- The operator's wallet (issue 14; docs/wallet.md). A player from an
-- operator's site is a user with the operator's ID of him (no password: the
-- operator's token opens his session). Every call to the operator's wallet
-- is written here in the transaction of the log record that causes it (an
-- outbox), then delivered until the operator answers. Times are
-- microseconds; amounts minor units.
ALTER TABLE users ADD COLUMN operator_id TEXT;
CREATE UNIQUE INDEX users_operator ON users (operator_id) WHERE operator_id IS NOT NULL;
CREATE TABLE wallet_calls (
	id        TEXT    PRIMARY KEY,            -- the transaction ID
	table_id  BIGINT  NOT NULL REFERENCES tables (id),
	seq       BIGINT  NOT NULL,               -- the log record that wrote it
	op        TEXT    NOT NULL CHECK (op IN ('debit', 'credit', 'rollback')),
	player    TEXT    NOT NULL,               -- the operator's ID of the player
	user_id   BIGINT  NOT NULL,
	round     TEXT    NOT NULL DEFAULT '',
	amount    BIGINT  NOT NULL CHECK (amount >= 0),
	kind      TEXT    NOT NULL DEFAULT '',
	reference TEXT    NOT NULL DEFAULT '',    -- a rollback's debit
	state     TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ok', 'refused', 'lapsed')),
	counted   BOOLEAN NOT NULL DEFAULT FALSE,    -- a debit whose money a stake is
	attempts  INTEGER NOT NULL DEFAULT 0,
	next_try  BIGINT  NOT NULL,
	answer    TEXT,                           -- the operator's answer, as JSON
	created   BIGINT  NOT NULL,
	answered  BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX wallet_calls_due ON wallet_calls (next_try) WHERE state = 'pending' AND op <> 'debit';
CREATE INDEX wallet_calls_created ON wallet_calls (created, id);
CREATE INDEX wallet_calls_table ON wallet_calls (table_id, created);
