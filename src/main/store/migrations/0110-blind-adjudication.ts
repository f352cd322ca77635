import type { Migration } from './types'

/**
 * Blind adjudication (issue 13). An adjudicator who also labels a dataset may decide a target
 * they labelled only when the dataset allows it, and the decision then says so, in the gold row
 * and in its history. An annotator who steps out of labelling a dataset to adjudicate it is
 * recorded, so their later labels cannot be ones given after seeing the others'. A dataset's own
 * labels are kept under a source (annotators.kind = 'source'), not under a made-up person.
 */
export const migration0110: Migration = {
  version: 110,
  name: 'blind-adjudication',
  up: `
ALTER TABLE gold ADD COLUMN adjudicator_labelled INTEGER NOT NULL DEFAULT 0 CHECK (adjudicator_labelled IN (0, 1));
ALTER TABLE gold_history ADD COLUMN adjudicator_labelled INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER gold_history_on_insert;
DROP TRIGGER gold_history_on_update;
CREATE TRIGGER gold_history_on_insert AFTER INSERT ON gold BEGIN
  INSERT INTO gold_history (target_id, verdict, source, adjudicator_id, note, action, at, adjudicator_labelled)
  VALUES (NEW.target_id, NEW.verdict, NEW.source, NEW.adjudicator_id, NEW.note, 'set', NEW.updated_at,
    NEW.adjudicator_labelled);
END;
CREATE TRIGGER gold_history_on_update AFTER UPDATE ON gold BEGIN
  INSERT INTO gold_history (target_id, verdict, source, adjudicator_id, note, action, at, adjudicator_labelled)
  VALUES (NEW.target_id, NEW.verdict, NEW.source, NEW.adjudicator_id, NEW.note, 'set', NEW.updated_at,
    NEW.adjudicator_labelled);
END;

-- A dataset's own labels (MRPC's quality, QQP's duplicate flag, SummEval's expert scores) are
-- kept under a named source, not a person: nobody labels as it, and it can be renamed.
ALTER TABLE annotators ADD COLUMN kind TEXT NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'source'));

CREATE TABLE adjudicator_stepouts (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  at TEXT NOT NULL,
  PRIMARY KEY (dataset_id, annotator_id)
) STRICT;
`,
}
