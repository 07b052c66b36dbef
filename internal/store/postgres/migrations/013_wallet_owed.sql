-- The operator's wallet, issue 25. A launch token is used once: sabot keeps
-- the SHA-256 of each token it opened a session with, and refuses it again;
-- the session is the transaction ID of the launch's authenticate, carried
-- by every later call of the player's. A credit or rollback the operator
-- refuses is money owed: it is sent again under a new transaction ID
-- (retry_of names the call it sends again) at next_retry, until one is
-- acknowledged or the pit resolves it by hand with a reason. Times are
-- microseconds.
CREATE TABLE launch_tokens (
	hash    TEXT    PRIMARY KEY,                 -- hex SHA-256 of the operator's token
	user_id BIGINT  NOT NULL,
	session TEXT    NOT NULL,
	created BIGINT  NOT NULL
);
CREATE INDEX launch_tokens_user ON launch_tokens (user_id, created);
ALTER TABLE wallet_calls ADD COLUMN game TEXT NOT NULL DEFAULT '';
ALTER TABLE wallet_calls ADD COLUMN session TEXT NOT NULL DEFAULT '';
ALTER TABLE wallet_calls ADD COLUMN round_closed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE wallet_calls ADD COLUMN retry_of TEXT NOT NULL DEFAULT '';
ALTER TABLE wallet_calls ADD COLUMN next_retry BIGINT NOT NULL DEFAULT 0;
ALTER TABLE wallet_calls ADD COLUMN resolved TEXT NOT NULL DEFAULT '';
ALTER TABLE wallet_calls ADD COLUMN resolved_by TEXT NOT NULL DEFAULT '';
ALTER TABLE wallet_calls ADD COLUMN resolved_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX wallet_calls_refused ON wallet_calls (created) WHERE state = 'refused' AND op <> 'debit' AND retry_of = '';
CREATE INDEX wallet_calls_retry ON wallet_calls (retry_of) WHERE retry_of <> '';
