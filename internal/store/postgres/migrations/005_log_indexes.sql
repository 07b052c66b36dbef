-- Reads served from indexes, whatever the length of the logs: a round's
-- records (recall), a shoe's (GET /api/shoes/{id}, verification), a
-- player's rounds (GET /api/me/rounds). The existing logs are indexed here.

-- The shoe a shoe, shoe-reveal or deal record belongs to (0: none).
ALTER TABLE log ADD COLUMN shoe_no BIGINT NOT NULL DEFAULT 0;
UPDATE log SET shoe_no = (payload->>'shoe')::BIGINT
	WHERE kind IN ('shoe', 'shoe-reveal', 'deal') AND json_typeof(payload->'shoe') = 'number';

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
	user_id  BIGINT NOT NULL,
	created  BIGINT NOT NULL,   -- the record's
	table_id BIGINT NOT NULL,
	seq      BIGINT NOT NULL,
	PRIMARY KEY (user_id, created, table_id, seq),
	FOREIGN KEY (table_id, seq) REFERENCES log (table_id, seq)
);
-- The players of a closed round are those of its deal's bets.
INSERT INTO log_users (user_id, created, table_id, seq)
SELECT DISTINCT u.id, s.created, s.table_id, s.seq
	FROM log s
	JOIN log d ON d.table_id = s.table_id AND d.round_no = s.round_no AND d.round_no <> 0 AND d.kind = 'deal'
	CROSS JOIN LATERAL json_array_elements(
		CASE WHEN json_typeof(d.payload->'bets') = 'array' THEN d.payload->'bets' ELSE '[]'::JSON END) b
	JOIN users u ON u.name = b->>'player'
	WHERE s.kind IN ('settle', 'void') AND s.round_no <> 0;
