-- Reads served from indexes, whatever the length of the logs: a round's
-- records (recall), a shoe's (GET /api/shoes/{id}, verification), a
-- player's rounds (GET /api/me/rounds). The existing logs are indexed here.

-- The shoe a shoe, shoe-reveal or deal record belongs to (0: none).
ALTER TABLE log ADD COLUMN shoe_no INTEGER NOT NULL DEFAULT 0;
UPDATE log SET shoe_no = json_extract(payload, '$.shoe')
	WHERE kind IN ('shoe', 'shoe-reveal', 'deal') AND json_type(payload, '$.shoe') = 'integer';

-- A round's records, on one table.
CREATE INDEX log_round ON log (table_id, round_no, seq) WHERE round_no <> 0;
-- A shoe's records: its start, its reveal, the deals of its rounds (by kind,
-- so that the start and the reveal are found without the deals).
CREATE INDEX log_shoe ON log (table_id, shoe_no, kind, round_no) WHERE shoe_no <> 0;
-- The options in force at a deal: the last configuration change before it.
CREATE INDEX log_configure ON log (table_id, seq) WHERE kind = 'configure';

-- The rounds each player bet in: a row per player for each settle or void
-- record that closes a round, written in the record's transaction
-- (LogRecord.Users), newest first on the primary key.
CREATE TABLE log_users (
	user_id  INTEGER NOT NULL,
	created  INTEGER NOT NULL,   -- the record's
	table_id INTEGER NOT NULL,
	seq      INTEGER NOT NULL,
	PRIMARY KEY (user_id, created, table_id, seq),
	FOREIGN KEY (table_id, seq) REFERENCES log (table_id, seq)
) WITHOUT ROWID;
-- The players of a closed round are those of its deal's bets.
INSERT INTO log_users (user_id, created, table_id, seq)
SELECT DISTINCT u.id, s.created, s.table_id, s.seq
	FROM log s
	JOIN log d ON d.table_id = s.table_id AND d.round_no = s.round_no AND d.round_no <> 0 AND d.kind = 'deal'
	JOIN json_each(d.payload, '$.bets') b
	JOIN users u ON u.name = json_extract(b.value, '$.player')
	WHERE s.kind IN ('settle', 'void') AND s.round_no <> 0;
