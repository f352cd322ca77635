import type { Migration } from './types'

/*
 * Two small additions that share this version number.
 *
 * `dataset_import_totals`: how many items the file of an import holds, recorded when the import
 * starts if that is cheap to know (import/rowTotal.ts). An import a full disk stopped is then
 * said as "stopped after 4,000 of 10,000 items"; no row means the total is not known. Its own
 * table rather than a column of `dataset_imports`, so this migration runs again safely.
 *
 * `label_saves_by_age`: the save ids of migration 0420 are pruned by age when a workspace opens
 * (labels/saveOnce.ts); the index keeps that a short range read, not a scan of every save.
 *
 * `IF NOT EXISTS` throughout: tests of earlier migrations set a workspace's version back and run
 * every later one again.
 */
export const migration0470: Migration = {
  version: 470,
  name: 'import-totals-and-save-ages',
  up: `
CREATE TABLE IF NOT EXISTS dataset_import_totals (
  dataset_id INTEGER PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
  items INTEGER NOT NULL CHECK (items >= 0)
) STRICT;
CREATE INDEX IF NOT EXISTS label_saves_by_age ON label_saves (at);
`,
}
