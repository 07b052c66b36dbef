-- A house account per table (no hot row): kind 'house-table',
-- owned by the table, takes the house's side of that table's settlements,
-- so that no two tables' settlements update one row. The house is the
-- central account ('house' of owner 0, where the rounds settled before this
-- migration stay) and every table's: the reports and `sabot ledger check`
-- sum them. Like the house, a table's house may go below zero.
--
-- SQLite cannot change a CHECK: the table is made again, its rows kept
-- aside with their IDs and put back. The entries' references are checked
-- at the commit (defer_foreign_keys lasts until then): the drop leaves
-- them without their account, putting each account back gives them it
-- again. The triggers of migration 007 are made again on the new table.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE accounts_021 AS SELECT id, kind, owner_id, balance FROM accounts;
DROP TABLE accounts;
CREATE TABLE accounts (
	id       INTEGER PRIMARY KEY,
	kind     TEXT    NOT NULL CHECK (kind IN ('wallet', 'bank', 'table', 'house', 'house-table')),
	owner_id INTEGER NOT NULL,   -- a user for wallet and bank, a table for table and house-table, 0 for house (a table: its cash float)
	balance  INTEGER NOT NULL DEFAULT 0,
	UNIQUE (kind, owner_id),
	CHECK (kind NOT IN ('wallet', 'bank') OR balance >= 0)
);
INSERT INTO accounts (id, kind, owner_id, balance) SELECT id, kind, owner_id, balance FROM accounts_021 ORDER BY id;
DROP TABLE accounts_021;
CREATE TRIGGER accounts_balance_bound_insert BEFORE INSERT ON accounts
WHEN typeof(NEW.balance) <> 'integer' OR NEW.balance NOT BETWEEN -1000000000000000 AND 1000000000000000
BEGIN
	SELECT RAISE(ABORT, 'accounts.balance: not an integer within ±1000000000000000 (sabot.MaxAmount)');
END;
CREATE TRIGGER accounts_balance_bound_update BEFORE UPDATE OF balance ON accounts
WHEN typeof(NEW.balance) <> 'integer' OR NEW.balance NOT BETWEEN -1000000000000000 AND 1000000000000000
BEGIN
	SELECT RAISE(ABORT, 'accounts.balance: not an integer within ±1000000000000000 (sabot.MaxAmount)');
END;
