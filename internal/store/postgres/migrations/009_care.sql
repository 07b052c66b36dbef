-- Responsible gaming on the built-in wallets (issue 15): the limits a
-- player sets, each on deposits, losses or stakes over a rolling day, week
-- or month, with a raise waiting for its cooling period; the player's
-- reality check and exclusion. Times are microseconds.
CREATE TABLE care_limits (
	user_id      BIGINT NOT NULL REFERENCES users (id),
	kind         TEXT    NOT NULL CHECK (kind IN ('deposit', 'loss', 'stake')),
	period       TEXT    NOT NULL CHECK (period IN ('day', 'week', 'month')),
	amount       BIGINT NOT NULL CHECK (amount >= 0),        -- in force; minor units
	pending      BIGINT NOT NULL DEFAULT -1,                 -- a raise waiting (-2: a removal); -1 none
	pending_from BIGINT NOT NULL DEFAULT 0,                  -- when it applies
	set_at       BIGINT NOT NULL,
	PRIMARY KEY (user_id, kind, period)
);
CREATE TABLE care_players (
	user_id         BIGINT PRIMARY KEY REFERENCES users (id),
	reality_minutes INTEGER NOT NULL DEFAULT 60 CHECK (reality_minutes >= 0),   -- 0: no reality check
	exclusion       TEXT    NOT NULL DEFAULT '' CHECK (exclusion IN ('', 'time-out', 'self-exclusion')),
	excluded_from   BIGINT NOT NULL DEFAULT 0,
	excluded_until  BIGINT NOT NULL DEFAULT 0
);
-- A player's entries over a period: the limits' usage.
CREATE INDEX entries_account_created ON entries (account_id, created);
