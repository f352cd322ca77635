import type { Migration } from './types'

/** True when the row's dataset (found through `datasetId`) is still being imported. */
const importing = (datasetId: string) =>
  `EXISTS (SELECT 1 FROM datasets d WHERE d.id = ${datasetId} AND d.state = 'importing')`
const itemImporting = (itemId: string) => importing(`(SELECT dataset_id FROM items WHERE id = ${itemId})`)
const targetImporting = (targetId: string) =>
  importing(`(SELECT dataset_id FROM targets WHERE id = ${targetId})`)

/**
 * An import commits in short transactions so that people keep labelling meanwhile. Its dataset
 * stays hidden (state 'importing') until the last row is in; `dataset_imports` says which
 * process is filling it, so a workspace opened after a crash can tell an abandoned import from
 * a live one, and `dataset_import_annotators` which annotator names it brought in.
 *
 * The search index of an importing dataset is filled in bulk per transaction by the importer
 * (row-by-row trigger inserts cost more than the rest of the import together), so the insert
 * triggers skip those rows. Update and delete triggers are unchanged: every committed row is
 * indexed either way.
 *
 * History stays append-only for every dataset anyone can see; only a dataset that never finished
 * importing may take its own history with it when it is withdrawn.
 */
export const migration0050: Migration = {
  version: 50,
  name: 'import-state',
  up: `
ALTER TABLE datasets ADD COLUMN state TEXT NOT NULL DEFAULT 'ready' CHECK (state IN ('importing', 'ready'));

CREATE TABLE dataset_imports (
  dataset_id INTEGER PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL
) STRICT;

-- Annotators an import added, so that withdrawing it (even after a crash) takes them back too.
CREATE TABLE dataset_import_annotators (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL,
  PRIMARY KEY (dataset_id, annotator_id)
) STRICT, WITHOUT ROWID;

-- Withdrawing an import deletes its rows. Foreign keys make each delete look for rows pointing
-- at it; without these indexes that look is a read of the whole table per deleted row.
CREATE INDEX targets_by_item ON targets (item_id);
CREATE INDEX units_by_superseded ON units (superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX candidates_by_parent ON candidates (parent_candidate_id) WHERE parent_candidate_id IS NOT NULL;

DROP TRIGGER items_fts_ai;
CREATE TRIGGER items_fts_ai AFTER INSERT ON items WHEN NOT ${importing('new.dataset_id')} BEGIN
  INSERT INTO items_fts (rowid, ext_id, question, reference) VALUES (new.id, new.ext_id, new.question, new.reference);
END;
DROP TRIGGER candidates_fts_ai;
CREATE TRIGGER candidates_fts_ai AFTER INSERT ON candidates WHEN NOT ${itemImporting('new.item_id')} BEGIN
  INSERT INTO candidates_fts (rowid, text) VALUES (new.id, new.text);
END;
DROP TRIGGER units_fts_ai;
CREATE TRIGGER units_fts_ai AFTER INSERT ON units WHEN NOT ${itemImporting('new.item_id')} BEGIN
  INSERT INTO units_fts (rowid, text) VALUES (new.id, new.text);
END;

DROP TRIGGER label_history_no_delete;
CREATE TRIGGER label_history_no_delete BEFORE DELETE ON label_history WHEN NOT ${targetImporting('old.target_id')}
  BEGIN SELECT RAISE(ABORT, 'label history is append-only'); END;
DROP TRIGGER gold_history_on_delete;
CREATE TRIGGER gold_history_on_delete AFTER DELETE ON gold WHEN NOT ${targetImporting('old.target_id')} BEGIN
  INSERT INTO gold_history (target_id, verdict, source, adjudicator_id, note, action, at)
  VALUES (OLD.target_id, NULL, NULL, NULL, NULL, 'cleared', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
DROP TRIGGER gold_history_no_delete;
CREATE TRIGGER gold_history_no_delete BEFORE DELETE ON gold_history WHEN NOT ${targetImporting('old.target_id')}
  BEGIN SELECT RAISE(ABORT, 'gold history is append-only'); END;
`,
}
