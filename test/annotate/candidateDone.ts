import type { Db } from '../../src/main/store/connection'

/**
 * candidate_done rebuilt from the raw rows (migration 0180's meaning): an annotator holding a
 * verdict on every current target of a candidate that has one, or annotator 0 for a candidate
 * with no current target. Sorted, to compare with the table the triggers keep.
 */
export function candidateDoneFromRows(db: Db): [number, number][] {
  return db
    .prepare(
      `SELECT c.id AS c, a.id AS a FROM candidates c, (SELECT id FROM annotators UNION SELECT 0) a
       WHERE CASE WHEN a.id = 0 THEN NOT EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id
           WHERE t.candidate_id = c.id AND u.superseded_by IS NULL AND u.deleted_at IS NULL)
         ELSE EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id
           WHERE t.candidate_id = c.id AND u.superseded_by IS NULL AND u.deleted_at IS NULL)
         AND NOT EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id
           WHERE t.candidate_id = c.id AND u.superseded_by IS NULL AND u.deleted_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.target_id = t.id AND l.annotator_id = a.id
             AND l.verdict IS NOT NULL)) END
       ORDER BY c.id, a.id`,
    )
    .raw()
    .all() as [number, number][]
}

/** The rows the triggers keep, in the same order. */
export function candidateDoneKept(db: Db): [number, number][] {
  return db
    .prepare('SELECT candidate_id, annotator_id FROM candidate_done ORDER BY candidate_id, annotator_id')
    .raw()
    .all() as [number, number][]
}
