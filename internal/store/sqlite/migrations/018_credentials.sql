-- A user's credentials version (issue 40, S1): it moves on with each
-- password change. A session keeps the version it was opened against, and
-- is made only if that is still the user's (checked in the session's own
-- insert, under the user row's lock): a login whose hash was read before
-- a change gets no session after it.
ALTER TABLE users ADD COLUMN credentials INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN credentials INTEGER NOT NULL DEFAULT 0;
