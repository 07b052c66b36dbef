-- The log by kind and time serves the reads across tables (the reports'
-- deals, settlements, voids and admin records; recall's significant
-- events: sqlstore.CrossTableKinds), and only those kinds: the bets,
-- actions and sittings, most of the log, are read by table, on the primary
-- key. Each of them wrote a row here for nothing (issue 46). The condition
-- is a chain of equalities, each of which SQLite proves from a query's kind.
DROP INDEX log_kind_created;
CREATE INDEX log_kind_created ON log (kind, created)
	WHERE kind = 'table-opened' OR kind = 'admin' OR kind = 'configure' OR kind = 'void'
	OR kind = 'timeout' OR kind = 'shoe-step' OR kind = 'deal' OR kind = 'settle';
