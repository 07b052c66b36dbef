-- Sessions idle past their time are deleted by the servers' sweep, and a
-- player's marks (care_seen) are kept to his latest few (issue 40, S3:
-- both grew without bound).
CREATE INDEX sessions_last_seen ON sessions (last_seen);
CREATE INDEX care_seen_user ON care_seen (user_id, seen_at);
