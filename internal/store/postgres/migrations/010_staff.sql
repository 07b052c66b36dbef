-- The live table (issue 13): the staff's roles, and the card readers the
-- pit issues to a table dealt from a physical shoe; a guest is a walk-in
-- player the dealer seats at one (no password: he never logs in). A device's token is
-- kept as its SHA-256, never itself. Times are microseconds.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT '' CHECK (role IN ('', 'dealer', 'inspector', 'guest'));
CREATE TABLE devices (
	id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	table_id   BIGINT  NOT NULL REFERENCES tables (id),
	name       TEXT    NOT NULL,
	token_hash BYTEA   NOT NULL UNIQUE,
	created_by TEXT    NOT NULL,
	created    BIGINT  NOT NULL,
	revoked    BIGINT  NOT NULL DEFAULT 0   -- when the pit revoked it (0: in use)
);
CREATE INDEX devices_table ON devices (table_id);
