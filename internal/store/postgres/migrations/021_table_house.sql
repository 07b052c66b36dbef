-- A house account per table (no hot row): kind 'house-table',
-- owned by the table, takes the house's side of that table's settlements,
-- so that no two tables' settlements update one row. The house is the
-- central account ('house' of owner 0, where the rounds settled before this
-- migration stay) and every table's: the reports and `sabot ledger check`
-- sum them. Like the house, a table's house may go below zero.
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check
	CHECK (kind IN ('wallet', 'bank', 'table', 'house', 'house-table'));
