-- Records found by kind: the significant events of every table, a table's
-- latest snapshot (Store.Find).
CREATE INDEX log_kind ON log (kind, table_id, seq);
