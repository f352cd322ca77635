import type { Migration } from './types'

/**
 * `verdict_columns`: each judge run's verdicts as one column, a byte per target id (0 = no
 * verdict, otherwise 1 + the index of its (status, verdict) pair in `dict`), so the metrics read
 * a run in one row instead of one row per verdict. It is a cache of `verdicts` and nothing else:
 * any insert, update or delete of a run's verdicts deletes the run's column, and the next read
 * rebuilds it from the rows (src/main/verdicts/stored.ts). `codes` NULL records that the run's
 * verdicts do not fit a column (explicit scores, more than 255 distinct verdicts, or target ids
 * too sparse), so the readers do not try again until the verdicts change.
 */
export const migration0100: Migration = {
  version: 100,
  name: 'performance',
  up: `
CREATE TABLE verdict_columns (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  lo INTEGER NOT NULL,
  dict TEXT NOT NULL,
  codes BLOB
) STRICT;

CREATE TRIGGER verdict_columns_ai AFTER INSERT ON verdicts BEGIN
  DELETE FROM verdict_columns WHERE run_id = new.run_id;
END;
CREATE TRIGGER verdict_columns_au AFTER UPDATE ON verdicts BEGIN
  DELETE FROM verdict_columns WHERE run_id IN (old.run_id, new.run_id);
END;
CREATE TRIGGER verdict_columns_ad AFTER DELETE ON verdicts BEGIN
  DELETE FROM verdict_columns WHERE run_id = old.run_id;
END;
`,
}
