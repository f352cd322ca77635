import type { Db } from '../store/connection'
import type { ActiveTime } from './activeTime'
import { type LabelRowsColumns, readLabelBlocks, type StoredBlock } from './blocks'

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
export function activeTimeOn(db: Db, targetIds: ArrayLike<number>): Map<number, ActiveTime> {
  const rows = db
    .prepare(
      `SELECT l.annotator_id AS id, SUM(l.seconds) AS seconds, COUNT(*) AS n,
              COUNT(CASE WHEN l.seconds > 0 THEN 1 END) AS timed FROM labels l
       WHERE l.target_id IN (SELECT value FROM json_each(?)) AND l.verdict IS NOT NULL
       GROUP BY l.annotator_id`,
    )
    .all(JSON.stringify(Array.from(targetIds))) as { id: number; seconds: number; n: number; timed: number }[]
  return new Map(rows.map((r) => [r.id, { seconds: r.seconds, labelled: r.n, timed: r.timed }]))
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

/**
 * Verdicts people first placed on the dataset's work (controls and sources left out) since an
 * ISO time, read through migration 0390's index, so a week's labels are read alone.
 */
export function labelsPlacedSince(
  db: Db,
  datasetId: number,
  since: string,
): { n: number; first: string | null } {
  const indexed = db.prepare("SELECT 1 FROM pragma_index_list('labels') WHERE name = 'labels_created'").get()
  return db
    .prepare(
      `SELECT COUNT(*) AS n, MIN(l.created_at) AS first FROM labels l ${indexed ? 'INDEXED BY labels_created' : ''}
         JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
         WHERE l.created_at >= ? AND l.verdict IS NOT NULL AND t.dataset_id = ? AND ${CURRENT} AND ${NOT_CONTROL}
           AND ${BY_PERSON}`,
    )
    .get(since, datasetId) as { n: number; first: string | null }
}

/**
 * Per person, the labels ranked past k on their target (ranked by when each was first placed:
 * past k, a label went on by hand). Only targets people labelled more than k times can hold one,
 * and the targets' count of people (`labels_n`) finds them through the queue's index.
 */
export function labelsPastK(db: Db, datasetId: number, k: number): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT annotatorId AS id, COUNT(*) AS n FROM (
         SELECT l.annotator_id AS annotatorId,
           ROW_NUMBER() OVER (PARTITION BY l.target_id ORDER BY l.created_at, l.id) AS rank
         FROM targets t JOIN units u ON u.id = t.unit_id JOIN labels l ON l.target_id = t.id
         WHERE t.dataset_id = @ds AND t.labels_n > @k AND ${CURRENT} AND ${NOT_CONTROL}
           AND l.verdict IS NOT NULL AND ${BY_PERSON})
       WHERE rank > @k GROUP BY annotatorId`,
    )
    .all({ ds: datasetId, k }) as { id: number; n: number }[]
  return new Map(rows.map((r) => [r.id, r.n]))
}

/**
 * `labelsPastK` over targets the caller found with more than k people's labels (the dashboard's
 * pass counts them), read through migration 0610's index, which holds each target's labels in
 * rank order (first placed, then id): no window sort, and no label row fetched. Null on a
 * workspace without that index (read-only, from before it): the caller asks `labelsPastK`.
 */
export function labelsPastKOf(db: Db, targets: readonly number[], k: number): Map<number, number> | null {
  if (!db.prepare("SELECT 1 FROM pragma_index_list('labels') WHERE name = 'labels_rank'").get()) return null
  if (targets.length === 0) return new Map()
  const rows = db
    .prepare(
      `SELECT annotatorId AS id, COUNT(*) AS n FROM (
         SELECT l.annotator_id AS annotatorId,
           ROW_NUMBER() OVER (PARTITION BY l.target_id ORDER BY l.created_at, l.id) AS rank
         FROM labels l INDEXED BY labels_rank
         WHERE l.target_id IN (SELECT value FROM json_each(@targets)) AND l.verdict IS NOT NULL AND ${BY_PERSON})
       WHERE rank > @k GROUP BY annotatorId`,
    )
    .all({ targets: JSON.stringify(targets), k }) as { id: number; n: number }[]
  return new Map(rows.map((r) => [r.id, r.n]))
}

/**
 * The labels with a verdict of targets lo … hi as columns: from the stored blocks (given ones a
 * worker read while nothing changed, blocksInBackground.ts), or (a workspace from before
 * migration 0160, read-only) from the rows.
 */
export function labelColumnsOf(
  db: Db,
  lo: number,
  hi: number,
  read?: readonly StoredBlock[] | null,
): LabelRowsColumns {
  if (hi < lo) return readRows(db, 1, 0)
  // The worker hands over the blocks alone; their seconds (label_block_extras) are read here.
  return readLabelBlocks(db, lo, hi, read && { rows: read, extras: null }) ?? readRows(db, lo, hi)
}

function readRows(db: Db, lo: number, hi: number): LabelRowsColumns {
  const rows = db
    .prepare(
      `SELECT target_id, annotator_id, verdict, seconds FROM labels
       WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL ORDER BY target_id, annotator_id`,
    )
    .raw()
    .all(lo, hi) as [number, number, string, number][]
  const verdicts: string[] = []
  const codes = new Map<string, number>()
  const verdict = Int32Array.from(rows, ([, , v]) => {
    let c = codes.get(v)
    if (c === undefined) {
      c = verdicts.push(v) - 1
      codes.set(v, c)
    }
    return c
  })
  return {
    target: Int32Array.from(rows, (r) => r[0]),
    annotator: Int32Array.from(rows, (r) => r[1]),
    verdict,
    verdicts,
    seconds: Float64Array.from(rows, (r) => r[3]),
    time: null,
  }
}

/** The workspace's sources (annotators of kind 'source'): their labels are a dataset's reference, not work. */
export function sourceIds(db: Db): Set<number> {
  return new Set(db.prepare("SELECT id FROM annotators WHERE kind = 'source'").pluck().all() as number[])
}

/** People (not sources) holding a verdict on the dataset's targets, current units or not. */
export function peopleWithLabels(db: Db, datasetId: number): { id: number; name: string }[] {
  return db
    .prepare(
      `SELECT a.id, a.name FROM annotators a WHERE a.kind = 'person' AND EXISTS (
         SELECT 1 FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE l.annotator_id = a.id AND t.dataset_id = ? AND l.verdict IS NOT NULL)
       ORDER BY a.name`,
    )
    .all(datasetId) as { id: number; name: string }[]
}
