import type { Db } from '../../../src/main/store/connection'

/*
 * What the annotation project (src/main/projects, src/main/guidelines) reads from labels and
 * gold: the dashboard's label rows, control answers, gold lookups, and each person's pace.
 * Controls (a projects table) are left out of work figures by the callers' conditions.
 */

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'
const NOT_CONTROL = 'NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)'
/**
 * The label `l` is a person's: a dataset's own reference labels (an annotator of kind 'source')
 * are no one's work, so they stay out of progress, rank, pace, control accuracy and agreement.
 */
const BY_PERSON = "NOT EXISTS (SELECT 1 FROM annotators s WHERE s.id = l.annotator_id AND s.kind = 'source')"

export interface RankedLabel {
  annotatorId: number
  targetId: number
  verdict: string
  seconds: number
  /** 1 for the first label placed on the target, 2 for the second, … (past k: placed by hand). */
  rank: number
}

/**
 * Every current, non-control verdict a person gave in a dataset, ranked per target by when it
 * was first placed (reference labels of a source neither appear nor take a rank).
 */
export function rankedLabels(db: Db, datasetId: number): RankedLabel[] {
  return db
    .prepare(
      `SELECT l.annotator_id AS annotatorId, l.target_id AS targetId, l.verdict, l.seconds,
         ROW_NUMBER() OVER (PARTITION BY l.target_id ORDER BY l.created_at, l.id) AS rank
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND ${CURRENT} AND l.verdict IS NOT NULL AND ${NOT_CONTROL} AND ${BY_PERSON}`,
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
 * The dataset's own reference labels (its sources' verdicts, as a release's labels) as known
 * answers, on current targets without a stored gold row: the release's answers, not a majority
 * of the people a control checks. A target the sources disagree on has no one answer: counted
 * apart, never used.
 */
export function referenceAnswers(
  db: Db,
  datasetId: number,
): { answers: { targetId: number; verdict: string }[]; disagreeing: number } {
  const rows = db
    .prepare(
      `SELECT t.id AS targetId, MIN(l.verdict) AS verdict, COUNT(DISTINCT l.verdict) AS n
       FROM labels l JOIN annotators a ON a.id = l.annotator_id AND a.kind = 'source'
       JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND ${CURRENT} AND l.verdict IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM gold g WHERE g.target_id = t.id)
       GROUP BY t.id ORDER BY t.id`,
    )
    .all(datasetId) as { targetId: number; verdict: string; n: number }[]
  return {
    answers: rows.filter((r) => r.n === 1).map(({ targetId, verdict }) => ({ targetId, verdict })),
    disagreeing: rows.filter((r) => r.n > 1).length,
  }
}

/**
 * Per person: answers given on the dataset's controls and how many match the control. A
 * control without a known answer (opened from a work package) is not scored, nor is a source's
 * reference label (it is often where the control's answer came from).
 */
export function controlAnswers(db: Db, datasetId: number) {
  return db
    .prepare(
      `SELECT l.annotator_id AS annotatorId, COUNT(*) AS answered, SUM(l.verdict = c.verdict) AS correct
       FROM controls c JOIN labels l ON l.target_id = c.target_id
       WHERE c.dataset_id = ? AND l.verdict IS NOT NULL AND c.verdict <> '' AND ${BY_PERSON}
       GROUP BY l.annotator_id`,
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

/** Verdicts people first placed on the dataset's work (controls and sources left out) since an ISO time. */
export function labelsPlacedSince(
  db: Db,
  datasetId: number,
  since: string,
): { n: number; first: string | null } {
  return db
    .prepare(
      `SELECT COUNT(*) AS n, MIN(l.created_at) AS first FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
         WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND l.created_at >= ? AND ${CURRENT} AND ${NOT_CONTROL}
           AND ${BY_PERSON}`,
    )
    .get(datasetId, since) as { n: number; first: string | null }
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

/** A person's labels in a dataset that the dashboard's figures leave out, and why. */
export interface UncountedLabels {
  annotatorId: number
  /** On control targets: scored as control accuracy, not counted as work. */
  controls: number
  /** On an older wording of a unit edited since: the current wording is what needs labels. */
  olderWordings: number
  /** On a unit deleted since. */
  deletedUnits: number
}

/**
 * Per person, the verdicts the dashboard does not count, so its numbers can be reconciled with
 * the Datasets card (which counts controls) and with the labels a bundle brought back (which
 * include every wording). Only people with at least one such label are listed.
 */
export function uncountedLabels(db: Db, datasetId: number): UncountedLabels[] {
  return db
    .prepare(
      `SELECT l.annotator_id AS annotatorId,
         COALESCE(SUM(${CURRENT} AND NOT ${NOT_CONTROL}), 0) AS controls,
         COALESCE(SUM(u.superseded_by IS NOT NULL), 0) AS olderWordings,
         COALESCE(SUM(u.superseded_by IS NULL AND u.deleted_at IS NOT NULL), 0) AS deletedUnits
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND ${BY_PERSON}
       GROUP BY l.annotator_id
       HAVING controls + olderWordings + deletedUnits > 0`,
    )
    .all(datasetId) as UncountedLabels[]
}

/** The dataset's reference labels per source (imported with it, not a person's work). */
export function sourceLabelCounts(db: Db, datasetId: number): { annotatorId: number; labels: number }[] {
  return db
    .prepare(
      `SELECT l.annotator_id AS annotatorId, COUNT(*) AS labels
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN annotators a ON a.id = l.annotator_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND a.kind = 'source'
       GROUP BY l.annotator_id ORDER BY a.name`,
    )
    .all(datasetId) as { annotatorId: number; labels: number }[]
}
