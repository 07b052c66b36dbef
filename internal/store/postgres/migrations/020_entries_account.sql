-- entries_account (account_id) is the prefix of entries_account_created
-- (account_id, created), which answers every query it answered: each
-- posting wrote one index more than it needed (issue 46: the ledger's
-- postings were an eighth of the server's processor time).
DROP INDEX entries_account;
