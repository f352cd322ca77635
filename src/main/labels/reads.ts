import type { Db } from '../store/connection'

/** [target id, time of its latest label] for labelled targets in an id range (label order for the metrics). */
export function lastLabelTimes(db: Db, lo: number, hi: number): [number, string][] {
  return db
    .prepare(
      `SELECT target_id, MAX(updated_at) FROM labels WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL
       GROUP BY target_id`,
    )
    .raw()
    .all(lo, hi) as [number, string][]
}

/** Current labels (current unit versions) of a dataset with the annotator's name and the variant. */
export function currentLabelsByName(
  db: Db,
  datasetId: number,
  variant?: string,
): { targetId: number; annotator: string; verdict: string; variant: string }[] {
  return db
    .prepare(
      `SELECT l.target_id AS targetId, a.name AS annotator, l.verdict AS verdict, c.variant AS variant
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       JOIN candidates c ON c.id = t.candidate_id JOIN annotators a ON a.id = l.annotator_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND (? IS NULL OR c.variant = ?)
       ORDER BY l.target_id`,
    )
    .all(datasetId, variant ?? null, variant ?? null) as {
    targetId: number
    annotator: string
    verdict: string
    variant: string
  }[]
}

/** A unit's labels (on any of its targets) with annotator and variant: what a version was given. */
export function labelsOnUnit(db: Db): (unitId: number) => {
  annotator: string
  variant: string
  verdict: string | null
  note: string | null
  updatedAt: string
}[] {
  const stmt = db.prepare(
    `SELECT a.name AS annotator, c.variant AS variant, l.verdict, l.note, l.updated_at AS updatedAt
     FROM labels l JOIN targets t ON t.id = l.target_id JOIN annotators a ON a.id = l.annotator_id
     JOIN candidates c ON c.id = t.candidate_id WHERE t.unit_id = ? ORDER BY c.id, a.name`,
  )
  return (unitId) =>
    stmt.all(unitId) as {
      annotator: string
      variant: string
      verdict: string | null
      note: string | null
      updatedAt: string
    }[]
}
