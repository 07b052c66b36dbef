-- The significant events of every table, the newest first, without a sort
-- of them all (Store.Find across tables). A table's latest snapshot is
-- found on the primary key, from the end of its log.
DROP INDEX log_kind;
CREATE INDEX log_kind_created ON log (kind, created);
