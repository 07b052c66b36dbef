-- Several nodes on one database (issue 12): the nodes that joined, each
-- with a lease it renews; each table's owner and epoch; the epoch each log
-- record was appended under. An append whose epoch is not its table's is
-- refused in its transaction (sqlstore appendTx).
CREATE TABLE nodes (
	id       TEXT    PRIMARY KEY,
	url      TEXT    NOT NULL,
	started  INTEGER NOT NULL,              -- microseconds, the database's clock
	renewed  INTEGER NOT NULL,
	expires  INTEGER NOT NULL,              -- the lease ends; claimable after
	left_at  INTEGER NOT NULL DEFAULT 0,    -- it left (a shutdown); 0: it did not
	draining INTEGER NOT NULL DEFAULT 0,    -- it hands its tables over and claims none
	lost     INTEGER NOT NULL DEFAULT 0     -- its lease expired while held, reported once
);
ALTER TABLE tables ADD COLUMN owner TEXT   NOT NULL DEFAULT '';  -- a node's id; '' none
ALTER TABLE tables ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;   -- up by one at each claim and release
ALTER TABLE log ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;      -- 0: appended unfenced
CREATE INDEX tables_owner ON tables (owner) WHERE owner <> '';
