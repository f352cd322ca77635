import type { Db } from '../store/connection'

/* What blind mode (src/main/blind/) needs to know of one person's labels. */

/** Targets of a dataset the annotator has a current verdict on; only among `targetIds` when given. */
export function targetsLabelledBy(
  db: Db,
  annotatorId: number,
  datasetId: number,
  targetIds?: readonly number[],
): Set<number> {
  const rows =
    targetIds === undefined
      ? db
          .prepare(
            `SELECT l.target_id AS id FROM labels l JOIN targets t ON t.id = l.target_id
             WHERE l.annotator_id = ? AND l.verdict IS NOT NULL AND t.dataset_id = ?`,
          )
          .all(annotatorId, datasetId)
      : db
          .prepare(
            `SELECT target_id AS id FROM labels WHERE annotator_id = ? AND verdict IS NOT NULL
               AND target_id IN (SELECT value FROM json_each(?))`,
          )
          .all(annotatorId, JSON.stringify(targetIds))
  return new Set((rows as { id: number }[]).map((r) => r.id))
}

/** Whether the annotator ever gave the target a verdict (a label cleared since still counts). */
export function everGaveVerdict(db: Db, targetId: number, annotatorId: number): boolean {
  return (
    db
      .prepare(
        'SELECT 1 FROM label_history WHERE target_id = ? AND annotator_id = ? AND verdict IS NOT NULL LIMIT 1',
      )
      .get(targetId, annotatorId) !== undefined
  )
}
