-- The reports' sums of each table's log by hour and by day (issue 29 item
-- 6; sabot.Rollups): a row a kind of sums, table, span (in seconds: 3,600
-- or 86,400) and start (a stamp in microseconds), the sums opaque to the
-- store; a mark a kind and table, the last seq of the table's log the rows
-- cover.
CREATE TABLE rollups (
	kind     TEXT NOT NULL,
	table_id INTEGER NOT NULL,
	span     INTEGER NOT NULL,
	start_at INTEGER NOT NULL,
	data     TEXT NOT NULL,
	PRIMARY KEY (kind, table_id, span, start_at)
);
CREATE TABLE rollup_marks (
	kind     TEXT NOT NULL,
	table_id INTEGER NOT NULL,
	seq      INTEGER NOT NULL,
	PRIMARY KEY (kind, table_id)
);
