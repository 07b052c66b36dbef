-- The pit's block of a player (issue 28, item 8; issue 25, item 3): the
-- reason the pit gave ('' none) and when. A block holds until the pit lifts
-- it; it is written apart from the player's own exclusion and reality
-- check, so that neither overwrites the other.
ALTER TABLE care_players ADD COLUMN blocked TEXT NOT NULL DEFAULT '';
ALTER TABLE care_players ADD COLUMN blocked_at BIGINT NOT NULL DEFAULT 0;
