import type { Db } from '../store/connection'

/*
 * What the annotation project (src/main/projects, src/main/guidelines) reads from labels and
 * gold: the dashboard's label rows, control answers, gold lookups, and each person's pace.
 * Controls (a projects table) are left out of work figures by the callers' conditions.
 */

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'
const NOT_CONTROL = 'NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)'

export interface RankedLabel {
  annotatorId: number
  targetId: number
  verdict: string
  seconds: number
  /** 1 for the first label placed on the target, 2 for the second, … (past k: placed by hand). */
  rank: number
}

/** Every current, non-control verdict of a dataset, ranked per target by when it was first placed. */
export function rankedLabels(db: Db, datasetId: number): RankedLabel[] {
  return db
    .prepare(
      `SELECT l.annotator_id AS annotatorId, l.target_id AS targetId, l.verdict, l.seconds,
         ROW_NUMBER() OVER (PARTITION BY l.target_id ORDER BY l.created_at, l.id) AS rank
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND ${CURRENT} AND l.verdict IS NOT NULL AND ${NOT_CONTROL}`,
    )
    .all(datasetId) as RankedLabel[]
}

/** Adjudicated decisions of a dataset, by target. */
export function adjudicatedGold(db: Db, datasetId: number): Map<number, string> {
  const rows = db
    .prepare(
      `SELECT g.target_id AS targetId, g.verdict FROM gold g JOIN targets t ON t.id = g.target_id
       WHERE t.dataset_id = ? AND g.source = 'adjudicated'`,
    )
    .all(datasetId) as { targetId: number; verdict: string }[]
  return new Map(rows.map((g) => [g.targetId, g.verdict]))
}

/** A lookup of a target's stored gold row (adjudicated or imported). */
export function storedGoldLookup(
  db: Db,
): (targetId: number) => { verdict: string; source: string } | undefined {
  const stmt = db.prepare('SELECT verdict, source FROM gold WHERE target_id = ?')
  return (targetId) => stmt.get(targetId) as { verdict: string; source: string } | undefined
}

/** Targets of a dataset holding a stored gold row, current units only. */
export function storedGoldTargets(db: Db, datasetId: number): number[] {
  return (
    db
      .prepare(
        `SELECT g.target_id AS id FROM gold g JOIN targets t ON t.id = g.target_id JOIN units u ON u.id = t.unit_id
         WHERE t.dataset_id = ? AND ${CURRENT} ORDER BY g.target_id`,
      )
      .all(datasetId) as { id: number }[]
  ).map((r) => r.id)
}

/**
 * Per annotator: answers given on the dataset's controls and how many match the control. A
 * control without a known answer (opened from a work package) is not scored.
 */
export function controlAnswers(db: Db, datasetId: number) {
  return db
    .prepare(
      `SELECT l.annotator_id AS annotatorId, COUNT(*) AS answered, SUM(l.verdict = c.verdict) AS correct
       FROM controls c JOIN labels l ON l.target_id = c.target_id
       WHERE c.dataset_id = ? AND l.verdict IS NOT NULL AND c.verdict <> '' GROUP BY l.annotator_id`,
    )
    .all(datasetId) as { annotatorId: number; answered: number; correct: number }[]
}

/**
 * Per annotator, over exactly these targets: the active seconds recorded on their labels and
 * how many of the targets they gave a verdict. What a person's cost is measured on.
 */
export function activeTimeOn(
  db: Db,
  targetIds: ArrayLike<number>,
): Map<number, { seconds: number; labelled: number }> {
  const rows = db
    .prepare(
      `SELECT l.annotator_id AS id, SUM(l.seconds) AS seconds, COUNT(*) AS n FROM labels l
       WHERE l.target_id IN (SELECT value FROM json_each(?)) AND l.verdict IS NOT NULL
       GROUP BY l.annotator_id`,
    )
    .all(JSON.stringify(Array.from(targetIds))) as { id: number; seconds: number; n: number }[]
  return new Map(rows.map((r) => [r.id, { seconds: r.seconds, labelled: r.n }]))
}

/** Whether the annotator has any label (even a cleared one) in the dataset. */
export function hasLabelIn(db: Db, annotatorId: number, datasetId: number): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE l.annotator_id = ? AND t.dataset_id = ? LIMIT 1`,
      )
      .get(annotatorId, datasetId) !== undefined
  )
}

/** Verdicts first placed on the dataset's work (controls left out) since an ISO time. */
export function labelsPlacedSince(db: Db, datasetId: number, since: string): number {
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
         WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND l.created_at >= ? AND ${CURRENT} AND ${NOT_CONTROL}`,
      )
      .get(datasetId, since) as { n: number }
  ).n
}

/** Each annotator's labels on the targets of their own assigned items (current, not controls). */
export function labelledInAssignment(db: Db, datasetId: number): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT a.annotator_id AS id, COUNT(*) AS n FROM assignments a JOIN targets t ON t.item_id = a.item_id
       JOIN units u ON u.id = t.unit_id
       JOIN labels l ON l.target_id = t.id AND l.annotator_id = a.annotator_id AND l.verdict IS NOT NULL
       WHERE a.dataset_id = ? AND ${CURRENT} AND ${NOT_CONTROL}
       GROUP BY a.annotator_id`,
    )
    .all(datasetId) as { id: number; n: number }[]
  return new Map(rows.map((r) => [r.id, r.n]))
}
