-- The transaction a log record wrote, found from the record (issue 29: the
-- pit's reports sum the ledger of a period's rounds, table by table,
-- without reading every transaction).
CREATE INDEX transactions_log ON transactions (table_id, seq);
