-- Every balance and every entry's amount is an integer within ±10^15 minor
-- units (sabot.MaxAmount): the store's postings check it first and refuse
-- with a reason; these triggers stop any other write. SQLite cannot add a
-- CHECK to a table, and the typeof test catches what a CHECK would let
-- through: an integer sum that overflowed, which SQLite turns into a REAL.
-- Rows written before this migration are not changed: `sabot ledger check`
-- reports any that are out of range.
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
CREATE TRIGGER entries_amount_bound_insert BEFORE INSERT ON entries
WHEN typeof(NEW.amount) <> 'integer' OR NEW.amount NOT BETWEEN -1000000000000000 AND 1000000000000000
BEGIN
	SELECT RAISE(ABORT, 'entries.amount: not an integer within ±1000000000000000 (sabot.MaxAmount)');
END;
CREATE TRIGGER entries_amount_bound_update BEFORE UPDATE OF amount ON entries
WHEN typeof(NEW.amount) <> 'integer' OR NEW.amount NOT BETWEEN -1000000000000000 AND 1000000000000000
BEGIN
	SELECT RAISE(ABORT, 'entries.amount: not an integer within ±1000000000000000 (sabot.MaxAmount)');
END;
