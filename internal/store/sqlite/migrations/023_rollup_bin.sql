-- The reports' rollup rows in binary (issue 42 item 4; docs/store.md,
-- "Rollups"): a row's sums go in bin, its data left empty. The rows of the
-- kinds before it (tables/1, players/1, errors/2, advantage/1) keep their
-- JSON in data, bin NULL; no sabot reads them again (their kinds' versions
-- moved on, and are rolled up anew). Only added: a sabot of before reads
-- and writes data as it did.
ALTER TABLE rollups ADD COLUMN bin BLOB;
