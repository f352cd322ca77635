import type { Migration } from './types'

const NOT_IMPORTING = `NOT EXISTS (SELECT 1 FROM datasets d WHERE d.id = new.dataset_id AND d.state = 'importing')`
const CURRENT_UNIT =
  'EXISTS (SELECT 1 FROM units u WHERE u.id = new.unit_id AND u.superseded_by IS NULL AND u.deleted_at IS NULL)'

/**
 * A new target never carries labels: a label names an existing target (a foreign key, enforced on
 * every connection), and a target with labels cannot be deleted, so not even a reused id comes
 * with any. On a current unit the new target is then one more thing nobody has labelled: its
 * item and its candidate are finished by no one, and neither is empty any more, so their rows of
 * item_done and candidate_done simply go. On a unit that is not current it changes nothing.
 * Migrations 0100 and 0180 recomputed both from every target of the item and of the candidate
 * on each insert, and SQLite sets up a trigger's whole program each time it fires: that was most
 * of the cost of adding a unit (a generated set of 100k facts over three answers adds 300k
 * targets).
 */
export const migration0230: Migration = {
  version: 230,
  name: 'new-target-done',
  up: `
DROP TRIGGER item_done_target_ai;
CREATE TRIGGER item_done_target_ai AFTER INSERT ON targets WHEN ${NOT_IMPORTING} AND ${CURRENT_UNIT}
  BEGIN DELETE FROM item_done WHERE item_id = new.item_id; END;
DROP TRIGGER candidate_done_target_ai;
CREATE TRIGGER candidate_done_target_ai AFTER INSERT ON targets WHEN ${NOT_IMPORTING} AND ${CURRENT_UNIT}
  BEGIN DELETE FROM candidate_done WHERE candidate_id = new.candidate_id; END;
`,
}
