import type { Migration } from './types'

/**
 * Overlap k counts people. `targets.labels_n` (migration 0080) counted every annotator holding a
 * verdict, so a dataset's own reference labels, imported under a source (annotators.kind =
 * 'source', migration 0110), took a place of k on every target they cover: right after import a
 * plan of k = 2 stood half done, the queue skipped targets only the source had "labelled", and
 * the people who then labelled them ranked past k. From here on labels_n counts people only, so
 * the queue, the plan's progress and the Items filter, which all read it, agree.
 *
 * A label's annotator is read by primary key inside the triggers (one lookup per label write).
 * Nothing changes an annotator's kind today; a trigger keeps the count right if anything ever does.
 */
const PERSON = (row: string) => `(SELECT kind FROM annotators WHERE id = ${row}.annotator_id) IS NOT 'source'`

export const migration0260: Migration = {
  version: 260,
  name: 'people-towards-k',
  up: `
DROP TRIGGER IF EXISTS labels_n_ai;
DROP TRIGGER IF EXISTS labels_n_au;
DROP TRIGGER IF EXISTS labels_n_ad;
DROP TRIGGER IF EXISTS labels_n_kind;

CREATE TRIGGER labels_n_ai AFTER INSERT ON labels WHEN new.verdict IS NOT NULL AND ${PERSON('new')} BEGIN
  UPDATE targets SET labels_n = labels_n + 1 WHERE id = new.target_id;
END;
CREATE TRIGGER labels_n_au AFTER UPDATE OF verdict, target_id, annotator_id ON labels
  WHEN (old.verdict IS NULL) <> (new.verdict IS NULL) OR old.target_id <> new.target_id
    OR old.annotator_id <> new.annotator_id BEGIN
  UPDATE targets SET labels_n = labels_n - 1
    WHERE id = old.target_id AND old.verdict IS NOT NULL AND ${PERSON('old')};
  UPDATE targets SET labels_n = labels_n + 1
    WHERE id = new.target_id AND new.verdict IS NOT NULL AND ${PERSON('new')};
END;
CREATE TRIGGER labels_n_ad AFTER DELETE ON labels WHEN old.verdict IS NOT NULL AND ${PERSON('old')} BEGIN
  UPDATE targets SET labels_n = labels_n - 1 WHERE id = old.target_id;
END;
CREATE TRIGGER labels_n_kind AFTER UPDATE OF kind ON annotators WHEN old.kind IS NOT new.kind BEGIN
  UPDATE targets SET labels_n = labels_n + (CASE WHEN new.kind = 'source' THEN -1 ELSE 1 END)
    WHERE id IN (SELECT target_id FROM labels WHERE annotator_id = new.id AND verdict IS NOT NULL);
END;

-- Only targets a source labelled change: the rest of a large workspace is not rewritten. Counted
-- afresh rather than adjusted, so the step gives the same counts however often it runs.
UPDATE targets SET labels_n = (
    SELECT COUNT(*) FROM labels l JOIN annotators a ON a.id = l.annotator_id
    WHERE l.target_id = targets.id AND l.verdict IS NOT NULL AND a.kind IS NOT 'source')
  WHERE id IN (
    SELECT l.target_id FROM labels l JOIN annotators a ON a.id = l.annotator_id
    WHERE a.kind = 'source' AND l.verdict IS NOT NULL);
`,
}
