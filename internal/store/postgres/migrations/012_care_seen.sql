-- Where each player registered and logged in from (issue 25): his address
-- and his browser (a cookie of its own), each kept as the SHA-256 of
-- "address:…" or "device:…", so that an account opened or used where an
-- excluded player's was is seen by the pit.
CREATE TABLE care_seen (
	mark    BYTEA NOT NULL,
	user_id BIGINT NOT NULL REFERENCES users (id),
	seen_at BIGINT NOT NULL,
	PRIMARY KEY (mark, user_id)
);
