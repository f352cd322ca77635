import type { Migration } from './types'

/** Recomputes whether target X (an SQL expression) has a judge verdict that differs from a human label. */
const refreshJudgeDisagreement = (x: string) => `
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

INSERT INTO judge_disagreements (target_id, dataset_id, item_id)
  SELECT DISTINCT t.id, t.dataset_id, t.item_id FROM verdicts v JOIN runs r ON r.id = v.run_id
    JOIN targets t ON t.id = v.target_id AND t.dataset_id = r.dataset_id
    JOIN labels l ON l.target_id = v.target_id
  WHERE v.status = 'ok' AND l.verdict IS NOT NULL AND v.verdict <> l.verdict;
`,
}
