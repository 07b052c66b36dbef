-- The schema of sabot's store, SQLite dialect; postgres/migrations/001_init.sql
-- is the same in PostgreSQL's. Times are microseconds since the Unix epoch.

CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	name          TEXT    NOT NULL UNIQUE,
	password_hash BLOB    NOT NULL,             -- bcrypt
	admin         INTEGER NOT NULL DEFAULT 0,   -- boolean
	created       INTEGER NOT NULL
);

-- A session is kept under the SHA-256 of its token, never the token itself.
CREATE TABLE sessions (
	token_hash BLOB    PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created    INTEGER NOT NULL,
	last_seen  INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- The ledger: an account's balance is the sum of its entries, in minor units.
CREATE TABLE accounts (
	id       INTEGER PRIMARY KEY,
	kind     TEXT    NOT NULL CHECK (kind IN ('wallet', 'bank', 'table', 'house')),
	owner_id INTEGER NOT NULL,   -- a user for wallet and bank, a table for table, 0 for house
	balance  INTEGER NOT NULL DEFAULT 0,
	UNIQUE (kind, owner_id),
	CHECK (kind NOT IN ('wallet', 'bank') OR balance >= 0)
);

CREATE TABLE tables (
	id        INTEGER PRIMARY KEY,
	name      TEXT    NOT NULL,
	profile   TEXT    NOT NULL,
	options   TEXT    NOT NULL CHECK (json_valid(options)),   -- a JSON object of strings
	test_mode INTEGER NOT NULL DEFAULT 0,                      -- boolean
	created   INTEGER NOT NULL,
	last_seq  INTEGER NOT NULL DEFAULT 0   -- the log's last seq; appends lock this row to take the next
);

-- Each table's append-only log: seq from 1, gapless.
CREATE TABLE log (
	table_id   INTEGER NOT NULL REFERENCES tables (id),
	seq        INTEGER NOT NULL,
	kind       TEXT    NOT NULL,
	client_id  TEXT    NOT NULL DEFAULT '',
	command_id TEXT    NOT NULL DEFAULT '',
	user_id    INTEGER NOT NULL DEFAULT 0,
	round_no   INTEGER NOT NULL DEFAULT 0,
	payload    TEXT    CHECK (payload IS NULL OR json_valid(payload)),   -- as appended, byte for byte
	created    INTEGER NOT NULL,
	PRIMARY KEY (table_id, seq)
);
-- A client command is applied once (GLI-19 §4.2.3).
CREATE UNIQUE INDEX log_command ON log (table_id, client_id, command_id)
	WHERE client_id <> '' AND command_id <> '';

-- A transaction of the ledger; table_id and seq name the log record that wrote it, if any.
CREATE TABLE transactions (
	id       INTEGER PRIMARY KEY,
	memo     TEXT    NOT NULL,
	table_id INTEGER,
	seq      INTEGER,
	created  INTEGER NOT NULL,
	FOREIGN KEY (table_id, seq) REFERENCES log (table_id, seq)
);

CREATE TABLE entries (
	id             INTEGER PRIMARY KEY,
	transaction_id INTEGER NOT NULL REFERENCES transactions (id),
	account_id     INTEGER NOT NULL REFERENCES accounts (id),
	amount         INTEGER NOT NULL,
	memo           TEXT    NOT NULL,
	created        INTEGER NOT NULL
);
CREATE INDEX entries_account ON entries (account_id);
CREATE INDEX entries_transaction ON entries (transaction_id);
