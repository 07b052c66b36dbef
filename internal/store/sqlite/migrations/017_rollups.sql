-- The reports' sums of each table's log by hour (issue 29 item 6;
-- sabot.Rollups): a row a kind of sums, table and hour (its start, a stamp
-- in microseconds), the sums opaque to the store; a mark a kind and table,
-- the last seq of the table's log the rows cover.
CREATE TABLE rollups (
	kind     TEXT NOT NULL,
	hour     INTEGER NOT NULL,
	table_id INTEGER NOT NULL,
	data     TEXT NOT NULL,
	PRIMARY KEY (kind, hour, table_id)
);
CREATE TABLE rollup_marks (
	kind     TEXT NOT NULL,
	table_id INTEGER NOT NULL,
	seq      INTEGER NOT NULL,
	PRIMARY KEY (kind, table_id)
);
