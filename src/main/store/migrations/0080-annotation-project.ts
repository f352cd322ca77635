import type { Migration } from './types'

/**
 * A dataset becomes an annotation project (issue 9): a plan (overlap k, assignment policy,
 * control rate, hourly rates), fixed assignments, versioned guidelines, control items and the
 * work packages handed to laptops.
 *
 * `targets.labels_n` counts the distinct annotators holding a verdict on a target, kept by
 * triggers so that the open queue ("fewest labels first, never past k") is one index range
 * (dataset, labels_n, id) whatever the size of the dataset, and every writer (LabelWriter,
 * bundle merge, import) keeps it right without knowing it exists.
 */
const DATASET_OF = (row: string) => `(SELECT dataset_id FROM targets WHERE id = ${row}.target_id)`
const LATEST = (row: string) =>
  `(SELECT MAX(g.version) FROM guidelines g WHERE g.dataset_id = ${DATASET_OF(row)})`

export const migration0080: Migration = {
  version: 80,
  name: 'annotation-project',
  up: `
CREATE TABLE dataset_plans (
  dataset_id INTEGER PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
  k INTEGER NOT NULL DEFAULT 1 CHECK (k >= 1),
  policy TEXT NOT NULL DEFAULT 'open' CHECK (policy IN ('open', 'fixed')),
  seed INTEGER NOT NULL DEFAULT 1,
  control_rate REAL NOT NULL DEFAULT 0 CHECK (control_rate >= 0 AND control_rate <= 1),
  hourly_rate REAL CHECK (hourly_rate IS NULL OR hourly_rate >= 0),
  updated_at TEXT NOT NULL
) STRICT;

-- The annotators a plan names (fixed policy splits items among them) and their own rate.
CREATE TABLE plan_annotators (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  hourly_rate REAL CHECK (hourly_rate IS NULL OR hourly_rate >= 0),
  PRIMARY KEY (dataset_id, annotator_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE assignments (
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  PRIMARY KEY (annotator_id, dataset_id, item_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX assignments_by_item ON assignments (item_id);
CREATE INDEX assignments_by_dataset ON assignments (dataset_id);

-- Every edit is a new version; nothing is updated or deleted, so the history is whole.
CREATE TABLE guidelines (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  body TEXT NOT NULL,
  author TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (dataset_id, version)
) STRICT;
CREATE TRIGGER guidelines_no_update BEFORE UPDATE ON guidelines
  BEGIN SELECT RAISE(ABORT, 'guidelines versions are kept as written'); END;

-- Which version an annotator has read in full (shown before their first label on the dataset).
CREATE TABLE guidelines_read (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  version INTEGER NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (dataset_id, annotator_id)
) STRICT, WITHOUT ROWID;

ALTER TABLE labels ADD COLUMN guidelines_version INTEGER;
ALTER TABLE label_history ADD COLUMN guidelines_version INTEGER;

-- Every label and history row is stamped with the dataset's guidelines version at the moment it
-- is written, in the same transaction, whoever writes it. History stays append-only: the only
-- change a history row accepts is this one stamp, once, on a row that has none.
DROP TRIGGER label_history_no_update;
CREATE TRIGGER label_history_no_update BEFORE UPDATE OF id, target_id, annotator_id, verdict, evidence, note,
  seconds, action, at ON label_history
  BEGIN SELECT RAISE(ABORT, 'label history is append-only'); END;
CREATE TRIGGER label_history_stamp_once BEFORE UPDATE OF guidelines_version ON label_history
  WHEN old.guidelines_version IS NOT NULL
  BEGIN SELECT RAISE(ABORT, 'label history is append-only'); END;
CREATE TRIGGER label_history_stamp AFTER INSERT ON label_history
  WHEN new.guidelines_version IS NULL AND EXISTS (SELECT 1 FROM guidelines g WHERE g.dataset_id = ${DATASET_OF('new')}) BEGIN
  UPDATE label_history SET guidelines_version = ${LATEST('new')} WHERE id = new.id;
END;
CREATE TRIGGER labels_stamp_ai AFTER INSERT ON labels
  WHEN EXISTS (SELECT 1 FROM guidelines g WHERE g.dataset_id = ${DATASET_OF('new')}) BEGIN
  UPDATE labels SET guidelines_version = ${LATEST('new')} WHERE id = new.id;
END;
CREATE TRIGGER labels_stamp_au AFTER UPDATE OF verdict, evidence, note ON labels
  WHEN EXISTS (SELECT 1 FROM guidelines g WHERE g.dataset_id = ${DATASET_OF('new')}) BEGIN
  UPDATE labels SET guidelines_version = ${LATEST('new')} WHERE id = new.id;
END;

CREATE TABLE controls (
  target_id INTEGER PRIMARY KEY REFERENCES targets(id) ON DELETE CASCADE,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  verdict TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('gold', 'file')),
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX controls_by_dataset ON controls (dataset_id);

-- Packages the lead handed out (lead's workspace) ...
CREATE TABLE packages (
  id TEXT PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  dataset_hash TEXT NOT NULL,
  targets INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  returned_at TEXT,
  labels_back INTEGER NOT NULL DEFAULT 0
) STRICT;
-- ... and the package a laptop's workspace was opened from (annotator's workspace).
CREATE TABLE package_opened (
  id TEXT PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  dataset_hash TEXT NOT NULL,
  opened_at TEXT NOT NULL
) STRICT;

ALTER TABLE targets ADD COLUMN labels_n INTEGER NOT NULL DEFAULT 0;
UPDATE targets SET labels_n = (SELECT COUNT(*) FROM labels l WHERE l.target_id = targets.id AND l.verdict IS NOT NULL);
CREATE INDEX targets_queue ON targets (dataset_id, labels_n, id);

CREATE TRIGGER labels_n_ai AFTER INSERT ON labels WHEN new.verdict IS NOT NULL BEGIN
  UPDATE targets SET labels_n = labels_n + 1 WHERE id = new.target_id;
END;
CREATE TRIGGER labels_n_au AFTER UPDATE OF verdict, target_id ON labels
  WHEN (old.verdict IS NULL) <> (new.verdict IS NULL) OR old.target_id <> new.target_id BEGIN
  UPDATE targets SET labels_n = labels_n - 1 WHERE id = old.target_id AND old.verdict IS NOT NULL;
  UPDATE targets SET labels_n = labels_n + 1 WHERE id = new.target_id AND new.verdict IS NOT NULL;
END;
CREATE TRIGGER labels_n_ad AFTER DELETE ON labels WHEN old.verdict IS NOT NULL BEGIN
  UPDATE targets SET labels_n = labels_n - 1 WHERE id = old.target_id;
END;
`,
}
