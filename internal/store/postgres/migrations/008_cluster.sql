-- Several nodes on one database (issue 12): the nodes that joined, each
-- with a lease it renews; each table's owner and epoch; the epoch each log
-- record was appended under. An append whose epoch is not its table's is
-- refused in its transaction (sqlstore appendTx).
CREATE TABLE nodes (
	id       TEXT    PRIMARY KEY,
	url      TEXT    NOT NULL,
	started  BIGINT  NOT NULL,              -- microseconds, the database's clock
	renewed  BIGINT  NOT NULL,
	expires  BIGINT  NOT NULL,              -- the lease ends; claimable after
	left_at  BIGINT  NOT NULL DEFAULT 0,    -- it left (a shutdown); 0: it did not
	draining BOOLEAN NOT NULL DEFAULT FALSE, -- it hands its tables over and claims none
	lost     BOOLEAN NOT NULL DEFAULT FALSE -- its lease expired while held, reported once
);
ALTER TABLE tables ADD COLUMN owner TEXT   NOT NULL DEFAULT '';  -- a node's id; '' none
ALTER TABLE tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;   -- up by one at each claim and release
ALTER TABLE log ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;      -- 0: appended unfenced
CREATE INDEX tables_owner ON tables (owner) WHERE owner <> '';
