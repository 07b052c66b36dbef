-- The schema of sabot's store, PostgreSQL dialect; sqlite/migrations/001_init.sql
-- is the same in SQLite's. Times are microseconds since the Unix epoch.

CREATE TABLE users (
	id            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name          TEXT    NOT NULL UNIQUE,
	password_hash BYTEA   NOT NULL,   -- bcrypt
	admin         BOOLEAN NOT NULL DEFAULT FALSE,
	created       BIGINT  NOT NULL
);

-- A session is kept under the SHA-256 of its token, never the token itself.
CREATE TABLE sessions (
	token_hash BYTEA  PRIMARY KEY,
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created    BIGINT NOT NULL,
	last_seen  BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- The ledger: an account's balance is the sum of its entries, in minor units.
CREATE TABLE accounts (
	id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	kind     TEXT   NOT NULL CHECK (kind IN ('wallet', 'bank', 'table', 'house')),
	owner_id BIGINT NOT NULL,   -- a user for wallet and bank, a table for table, 0 for house
	balance  BIGINT NOT NULL DEFAULT 0,
	UNIQUE (kind, owner_id),
	CHECK (kind NOT IN ('wallet', 'bank') OR balance >= 0)
);

CREATE TABLE tables (
	id        BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name      TEXT    NOT NULL,
	profile   TEXT    NOT NULL,
	options   JSON    NOT NULL,   -- a JSON object of strings
	test_mode BOOLEAN NOT NULL DEFAULT FALSE,
	created   BIGINT  NOT NULL,
	last_seq  BIGINT  NOT NULL DEFAULT 0   -- the log's last seq; appends lock this row to take the next
);

-- Each table's append-only log: seq from 1, gapless.
CREATE TABLE log (
	table_id   BIGINT NOT NULL REFERENCES tables (id),
	seq        BIGINT NOT NULL,
	kind       TEXT   NOT NULL,
	client_id  TEXT   NOT NULL DEFAULT '',
	command_id TEXT   NOT NULL DEFAULT '',
	user_id    BIGINT NOT NULL DEFAULT 0,
	round_no   BIGINT NOT NULL DEFAULT 0,
	payload    JSON,   -- as appended, byte for byte (JSON, not JSONB)
	created    BIGINT NOT NULL,
	PRIMARY KEY (table_id, seq)
);
-- A client command is applied once (GLI-19 §4.2.3).
CREATE UNIQUE INDEX log_command ON log (table_id, client_id, command_id)
	WHERE client_id <> '' AND command_id <> '';

-- A transaction of the ledger; table_id and seq name the log record that wrote it, if any.
CREATE TABLE transactions (
	id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	memo     TEXT   NOT NULL,
	table_id BIGINT,
	seq      BIGINT,
	created  BIGINT NOT NULL,
	FOREIGN KEY (table_id, seq) REFERENCES log (table_id, seq)
);

CREATE TABLE entries (
	id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	transaction_id BIGINT NOT NULL REFERENCES transactions (id),
	account_id     BIGINT NOT NULL REFERENCES accounts (id),
	amount         BIGINT NOT NULL,
	memo           TEXT   NOT NULL,
	created        BIGINT NOT NULL
);
CREATE INDEX entries_account ON entries (account_id);
CREATE INDEX entries_transaction ON entries (transaction_id);
