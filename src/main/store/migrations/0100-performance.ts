import type { Migration } from './types'

const CURRENT_U = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/**
 * Recomputes item X's rows of item_done: one per annotator who has a verdict on every current
 * target of the item, or, for an item with no current target at all, one row with annotator 0
 * (nothing is left to label there for anyone; annotator ids start at 1).
 */
const refreshItemDone = (x: string) => `
  DELETE FROM item_done WHERE item_id = ${x};
  INSERT INTO item_done (item_id, annotator_id, dataset_id)
    SELECT i.id, a.annotator_id, i.dataset_id FROM items i,
      (SELECT DISTINCT l.annotator_id FROM targets t JOIN labels l ON l.target_id = t.id
        WHERE t.item_id = ${x} AND l.verdict IS NOT NULL) a
    WHERE i.id = ${x}
      AND EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.item_id = ${x} AND ${CURRENT_U})
      AND NOT EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id
        WHERE t.item_id = ${x} AND ${CURRENT_U} AND NOT EXISTS (SELECT 1 FROM labels l
          WHERE l.target_id = t.id AND l.annotator_id = a.annotator_id AND l.verdict IS NOT NULL));
  INSERT INTO item_done (item_id, annotator_id, dataset_id)
    SELECT i.id, 0, i.dataset_id FROM items i WHERE i.id = ${x}
      AND NOT EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.item_id = ${x} AND ${CURRENT_U});`

const IMPORTING = (dataset: string) =>
  `EXISTS (SELECT 1 FROM datasets d WHERE d.id = ${dataset} AND d.state = 'importing')`

/** Fills item_done for one dataset (an SQL expression for its id) or, with null, for all. */
const fillItemDone = (dataset: string | null) => {
  const of = (alias: string) => (dataset === null ? '1' : `${alias}.dataset_id = ${dataset}`)
  return `
  INSERT INTO item_done (item_id, annotator_id, dataset_id)
    SELECT t.item_id, l.annotator_id, t.dataset_id FROM targets t JOIN units u ON u.id = t.unit_id
      JOIN labels l ON l.target_id = t.id AND l.verdict IS NOT NULL
    WHERE ${CURRENT_U} AND ${of('t')}
    GROUP BY t.item_id, l.annotator_id
    HAVING COUNT(*) = (SELECT COUNT(*) FROM targets t2 JOIN units u2 ON u2.id = t2.unit_id
      WHERE t2.item_id = t.item_id AND u2.superseded_by IS NULL AND u2.deleted_at IS NULL);
  INSERT INTO item_done (item_id, annotator_id, dataset_id)
    SELECT i.id, 0, i.dataset_id FROM items i WHERE ${of('i')} AND NOT EXISTS (SELECT 1 FROM targets t
      JOIN units u ON u.id = t.unit_id WHERE t.item_id = i.id AND ${CURRENT_U});`
}

/** Recomputes whether target X (an SQL expression) has a judge verdict that differs from a human label. */
export const refreshJudgeDisagreement = (x: string) => `
  DELETE FROM judge_disagreements WHERE target_id = ${x};
  INSERT INTO judge_disagreements (target_id, dataset_id, item_id)
    SELECT t.id, t.dataset_id, t.item_id FROM targets t WHERE t.id = ${x} AND EXISTS (
      SELECT 1 FROM verdicts v JOIN runs r ON r.id = v.run_id JOIN labels l ON l.target_id = v.target_id
      WHERE v.target_id = ${x} AND r.dataset_id = t.dataset_id AND v.status = 'ok'
        AND l.verdict IS NOT NULL AND v.verdict <> l.verdict);`

/**
 * `verdict_columns`: each judge run's verdicts as one column, a byte per target id (0 = no
 * verdict, otherwise 1 + the index of its (status, verdict) pair in `dict`), so the metrics read
 * a run in one row instead of one row per verdict. It is a cache of `verdicts` and nothing else:
 * any insert, update or delete of a run's verdicts deletes the run's column, and the next read
 * rebuilds it from the rows (src/main/verdicts/stored.ts). `codes` NULL records that the run's
 * verdicts do not fit a column (explicit scores, more than 255 distinct verdicts, or target ids
 * too sparse), so the readers do not try again until the verdicts change.
 *
 * `judge_disagreements`: the targets where some judge verdict (status ok, a run of the target's
 * dataset) differs from some human label, kept by triggers on verdicts and labels, so the Items
 * filter "judges disagree" reads a short index range instead of joining every verdict with
 * every label. Whether the unit is current and the variant are checked when it is read.
 *
 * `item_done`: (item, annotator) pairs where the annotator has a verdict on every current target
 * of the item (annotator 0: the item has no current target), kept by triggers on items, labels,
 * targets and units, so "not yet labelled by me" is one index probe per item instead of a look
 * at every target.
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

CREATE TABLE judge_disagreements (
  target_id INTEGER PRIMARY KEY REFERENCES targets(id) ON DELETE CASCADE,
  dataset_id INTEGER NOT NULL,
  item_id INTEGER NOT NULL
) STRICT;
CREATE INDEX judge_disagreements_by_item ON judge_disagreements (dataset_id, item_id);

CREATE TRIGGER judge_disagreements_verdict_ai AFTER INSERT ON verdicts
  BEGIN ${refreshJudgeDisagreement('new.target_id')} END;
CREATE TRIGGER judge_disagreements_verdict_au AFTER UPDATE ON verdicts
  BEGIN ${refreshJudgeDisagreement('old.target_id')} ${refreshJudgeDisagreement('new.target_id')} END;
CREATE TRIGGER judge_disagreements_verdict_ad AFTER DELETE ON verdicts
  BEGIN ${refreshJudgeDisagreement('old.target_id')} END;
CREATE TRIGGER judge_disagreements_label_ai AFTER INSERT ON labels
  BEGIN ${refreshJudgeDisagreement('new.target_id')} END;
CREATE TRIGGER judge_disagreements_label_au AFTER UPDATE ON labels
  BEGIN ${refreshJudgeDisagreement('old.target_id')} ${refreshJudgeDisagreement('new.target_id')} END;
CREATE TRIGGER judge_disagreements_label_ad AFTER DELETE ON labels
  BEGIN ${refreshJudgeDisagreement('old.target_id')} END;

CREATE TABLE item_done (
  item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL,
  dataset_id INTEGER NOT NULL,
  PRIMARY KEY (item_id, annotator_id)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER item_done_label_ai AFTER INSERT ON labels
  BEGIN ${refreshItemDone('(SELECT item_id FROM targets WHERE id = new.target_id)')} END;
CREATE TRIGGER item_done_label_au AFTER UPDATE ON labels
  BEGIN ${refreshItemDone('(SELECT item_id FROM targets WHERE id = old.target_id)')}
    ${refreshItemDone('(SELECT item_id FROM targets WHERE id = new.target_id)')} END;
CREATE TRIGGER item_done_label_ad AFTER DELETE ON labels
  BEGIN ${refreshItemDone('(SELECT item_id FROM targets WHERE id = old.target_id)')} END;
-- A dataset being imported gets its rows in one pass when it turns ready (below), not one
-- refresh per inserted row, which would cost the import more than its own inserts.
CREATE TRIGGER item_done_item_ai AFTER INSERT ON items WHEN NOT ${IMPORTING('new.dataset_id')} BEGIN
  INSERT INTO item_done (item_id, annotator_id, dataset_id) VALUES (new.id, 0, new.dataset_id);
END;
CREATE TRIGGER item_done_target_ai AFTER INSERT ON targets WHEN NOT ${IMPORTING('new.dataset_id')}
  BEGIN ${refreshItemDone('new.item_id')} END;
CREATE TRIGGER item_done_dataset_ready AFTER UPDATE OF state ON datasets
  WHEN old.state = 'importing' AND new.state = 'ready' BEGIN
  DELETE FROM item_done WHERE dataset_id = new.id;
  ${fillItemDone('new.id')}
END;
CREATE TRIGGER item_done_target_ad AFTER DELETE ON targets BEGIN ${refreshItemDone('old.item_id')} END;
CREATE TRIGGER item_done_unit_au AFTER UPDATE OF superseded_by, deleted_at, item_id ON units
  BEGIN ${refreshItemDone('old.item_id')} ${refreshItemDone('new.item_id')} END;

${fillItemDone(null)}

INSERT INTO judge_disagreements (target_id, dataset_id, item_id)
  SELECT DISTINCT t.id, t.dataset_id, t.item_id FROM verdicts v JOIN runs r ON r.id = v.run_id
    JOIN targets t ON t.id = v.target_id AND t.dataset_id = r.dataset_id
    JOIN labels l ON l.target_id = v.target_id
  WHERE v.status = 'ok' AND l.verdict IS NOT NULL AND v.verdict <> l.verdict;
`,
}
