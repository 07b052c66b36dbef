-- Every balance and every entry's amount is within ±10^15 minor units
-- (sabot.MaxAmount): the store's postings check it first and refuse with a
-- reason; these constraints stop any other write. NOT VALID: rows written
-- before this migration are not checked here (the migration cannot fail on
-- them); `sabot ledger check` reports any that are out of range.
ALTER TABLE accounts ADD CONSTRAINT accounts_balance_bound
	CHECK (balance BETWEEN -1000000000000000 AND 1000000000000000) NOT VALID;
ALTER TABLE entries ADD CONSTRAINT entries_amount_bound
	CHECK (amount BETWEEN -1000000000000000 AND 1000000000000000) NOT VALID;
