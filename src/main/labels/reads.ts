import type { Db } from '../store/connection'
import { labelsForMetrics } from './columns'

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

/**
 * The labelled targets of an id range, by the time of their latest label then by id: what
 * sorting `lastLabelTimes` gives, sorted by SQLite so a million timestamps never reach
 * JavaScript, from the index of migration 0140. (Text compares byte by byte in UTF-8 there and by UTF-16 unit in JavaScript; the
 * two orders differ only between characters past U+FFFF and U+E000–U+FFFF, never in the ISO
 * timestamps labels carry.)
 */
export function labelledByTime(db: Db, lo: number, hi: number): number[] {
  return db
    .prepare(
      `SELECT target_id FROM ${labelsForMetrics(db)} WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL
       GROUP BY target_id ORDER BY MAX(updated_at), target_id`,
    )
    .pluck()
    .all(lo, hi) as number[]
}

/** Current labels (current unit versions) of a dataset with the annotator's name and the variant. */
export function currentLabelsByName(
  db: Db,
  datasetId: number,
  variant?: string,
  /** Control items (annotation projects) count only when asked; a version keeps its labels only. */
  opts: { includeControls?: boolean; guidelinesVersion?: number } = {},
): { targetId: number; annotator: string; verdict: string; variant: string }[] {
  return db
    .prepare(
      `SELECT l.target_id AS targetId, a.name AS annotator, l.verdict AS verdict, c.variant AS variant
       FROM labels l JOIN targets t ON t.id = l.target_id JOIN units u ON u.id = t.unit_id
       JOIN candidates c ON c.id = t.candidate_id JOIN annotators a ON a.id = l.annotator_id
       WHERE t.dataset_id = @ds AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND (@variant IS NULL OR c.variant = @variant)
         AND (@controls = 1 OR NOT EXISTS (SELECT 1 FROM controls x WHERE x.target_id = t.id))
         AND (@version IS NULL OR l.guidelines_version = @version)
       ORDER BY l.target_id`,
    )
    .all({
      ds: datasetId,
      variant: variant ?? null,
      controls: opts.includeControls ? 1 : 0,
      version: opts.guidelinesVersion ?? null,
    }) as {
    targetId: number
    annotator: string
    verdict: string
    variant: string
  }[]
}

/**
 * A unit's labels (on any of its targets) with annotator and variant: what a version was given.
 * `visible` (blind mode) keeps the viewer's own labels and those on targets the condition allows.
 */
export function labelsOnUnit(
  db: Db,
  visible?: { condition: string; viewerId: number },
): (unitId: number) => {
  annotator: string
  variant: string
  verdict: string | null
  note: string | null
  updatedAt: string
}[] {
  const stmt = db.prepare(
    `SELECT a.name AS annotator, c.variant AS variant, l.verdict, l.note, l.updated_at AS updatedAt
     FROM labels l JOIN targets t ON t.id = l.target_id JOIN annotators a ON a.id = l.annotator_id
     JOIN candidates c ON c.id = t.candidate_id
     WHERE t.unit_id = @unitId ${visible ? `AND (l.annotator_id = @viewerId OR ${visible.condition})` : ''}
     ORDER BY c.id, a.name`,
  )
  return (unitId) =>
    stmt.all(visible ? { unitId, viewerId: visible.viewerId } : { unitId }) as {
      annotator: string
      variant: string
      verdict: string | null
      note: string | null
      updatedAt: string
    }[]
}

/** How many labels on a unit `visible` keeps from the viewer (others' labels while blind). */
export function hiddenLabelsOnUnit(
  db: Db,
  visible: { condition: string; viewerId: number },
): (unitId: number) => number {
  const stmt = db.prepare(
    `SELECT count(*) AS n FROM labels l JOIN targets t ON t.id = l.target_id
     WHERE t.unit_id = @unitId AND l.annotator_id <> @viewerId AND NOT (${visible.condition})`,
  )
  return (unitId) => (stmt.get({ unitId, viewerId: visible.viewerId }) as { n: number }).n
}

/** Current labels (current unit versions, verdict set) of a dataset as {t: target, a: annotator, v: verdict}, streamed. */
export function currentLabelRows(
  db: Db,
  datasetId: number,
): IterableIterator<{ t: number; a: number; v: string }> {
  return db
    .prepare(
      `SELECT l.target_id AS t, l.annotator_id AS a, l.verdict AS v FROM labels l
       JOIN targets tg ON tg.id = l.target_id JOIN units u ON u.id = tg.unit_id
       WHERE tg.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL`,
    )
    .iterate(datasetId) as IterableIterator<{ t: number; a: number; v: string }>
}

/**
 * Annotators with at least one label (cleared ones too) in the dataset, by name. `range`: the
 * lowest and highest id of the dataset's targets when the caller knows them.
 */
export function annotatorsWithLabels(
  db: Db,
  datasetId: number,
  range?: readonly [number, number],
): { id: number; name: string }[] {
  // One index probe per annotator (its first label in the dataset's target id range), not a
  // join over every label of the dataset.
  return db
    .prepare(
      `SELECT a.id, a.name FROM annotators a WHERE EXISTS (
         SELECT 1 FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE l.annotator_id = a.id AND t.dataset_id = @ds
           AND l.target_id BETWEEN ${range ? '@lo AND @hi' : '(SELECT MIN(id) FROM targets WHERE dataset_id = @ds) AND (SELECT MAX(id) FROM targets WHERE dataset_id = @ds)'})
       ORDER BY a.name`,
    )
    .all(range ? { ds: datasetId, lo: range[0], hi: range[1] } : { ds: datasetId }) as {
    id: number
    name: string
  }[]
}

/** A label row as the exports read it (see labelsInTargetRange). */
export type LabelRangeRow = [
  target: number,
  annotator: number,
  verdict: string | number | null,
  seconds: number,
  guidelines: number | null,
  evidence: string | null,
  note: string | null,
]

/**
 * Every label on targets `lo`..`hi` (ids) as [target, annotator, verdict, seconds, guidelines
 * version, evidence JSON (null when empty), note], by target then annotator: one ordered range
 * scan for exports. A verdict listed in `known` comes as its index there (no string is made
 * for each of a million labels), any other as itself. `extrasOnly`: only the labels carrying
 * something the label blocks (labels/blocks.ts) do not hold (a guidelines version, evidence or
 * a note), usually few: the rest are read from the blocks.
 */
export function labelsInTargetRange(
  db: Db,
  lo: number,
  hi: number,
  known: readonly string[] = [],
  extrasOnly = false,
): IterableIterator<LabelRangeRow> {
  const verdict = known.length
    ? `CASE verdict ${known.map((_, k) => `WHEN @v${k} THEN ${k}`).join(' ')} ELSE verdict END`
    : 'verdict'
  const extras = extrasOnly
    ? "AND (guidelines_version IS NOT NULL OR evidence <> '[]' OR note IS NOT NULL)"
    : ''
  return db
    .prepare(
      `SELECT target_id, annotator_id, ${verdict}, seconds, guidelines_version, NULLIF(evidence, '[]'), note
       FROM labels WHERE target_id BETWEEN @lo AND @hi ${extras} ORDER BY target_id, annotator_id`,
    )
    .raw()
    .iterate({
      lo,
      hi,
      ...Object.fromEntries(known.map((v, k) => [`v${k}`, v])),
    }) as IterableIterator<LabelRangeRow>
}

/**
 * When each verdict was first placed, on the dataset's targets (ids `lo`..`hi`) that two or more
 * people hold one on, as [target, annotator, created_at] by target then annotator. That order
 * ranks the people on a target (projectReads.ts `rankedLabels`: a label past k), so an export
 * carries it and an import ranks them alike; a target one person labelled has no order to keep.
 */
export function sharedLabelTimes(
  db: Db,
  datasetId: number,
  lo: number,
  hi: number,
): IterableIterator<[number, number, string]> {
  return db
    .prepare(
      `SELECT l.target_id, l.annotator_id, l.created_at FROM targets t JOIN labels l ON l.target_id = t.id
       WHERE t.dataset_id = ? AND t.labels_n >= 2 AND t.id BETWEEN ? AND ? AND l.verdict IS NOT NULL
       ORDER BY l.target_id, l.annotator_id`,
    )
    .raw()
    .iterate(datasetId, lo, hi) as IterableIterator<[number, number, string]>
}

/**
 * sharedLabelTimes' times alone, in its order (target, then annotator): a column of strings, read
 * at once, costs far less than rows that also name their labels. The caller knows the labels.
 */
export function sharedLabelTimeTexts(db: Db, datasetId: number, lo: number, hi: number): string[] {
  return db
    .prepare(
      `SELECT l.created_at FROM targets t JOIN labels l ON l.target_id = t.id
       WHERE t.dataset_id = ? AND t.labels_n >= 2 AND t.id BETWEEN ? AND ? AND l.verdict IS NOT NULL
       ORDER BY t.id, l.annotator_id`,
    )
    .pluck()
    .all(datasetId, lo, hi) as string[]
}

/** The dataset's targets (ids `lo`..`hi`) that two or more people hold a verdict on, by id. */
export function sharedTargetIds(db: Db, datasetId: number, lo: number, hi: number): number[] {
  return db
    .prepare(
      'SELECT id FROM targets WHERE dataset_id = ? AND labels_n >= 2 AND id BETWEEN ? AND ? ORDER BY id',
    )
    .pluck()
    .all(datasetId, lo, hi) as number[]
}

/** Stored gold rows (adjudicated or imported) of a dataset as [target id, verdict, source]. */
export function storedGoldWithSource(
  db: Db,
  datasetId: number,
): IterableIterator<[number, string, 'adjudicated' | 'import']> {
  return db
    .prepare(
      'SELECT g.target_id, g.verdict, g.source FROM gold g JOIN targets t ON t.id = g.target_id WHERE t.dataset_id = ?',
    )
    .raw()
    .iterate(datasetId) as IterableIterator<[number, string, 'adjudicated' | 'import']>
}

/** The fact targets of an item, each with one annotator's verdict (null when unlabelled). */
export function factTargetsWithLabel(db: Db) {
  const targets = db.prepare(
    `SELECT t.id, t.unit_id AS unit, t.candidate_id AS candidate, l.verdict AS label FROM targets t
     JOIN units u ON u.id = t.unit_id AND u.kind = 'fact'
     LEFT JOIN labels l ON l.target_id = t.id AND l.annotator_id = ?
     WHERE t.dataset_id = ? AND t.item_id = ?`,
  )
  return (annotatorId: number | null, datasetId: number, itemId: number) =>
    targets.all(annotatorId, datasetId, itemId) as {
      id: number
      unit: number
      candidate: number
      label: string | null
    }[]
}

/** Verdicts per annotator id on current unit versions of a dataset. */
export function labelCountsByAnnotator(db: Db, datasetId: number): { a: number; n: number }[] {
  return db
    .prepare(
      `SELECT l.annotator_id AS a, COUNT(*) AS n FROM labels l JOIN targets t ON t.id = l.target_id
       JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       GROUP BY l.annotator_id`,
    )
    .all(datasetId) as { a: number; n: number }[]
}

/** Verdicts per annotator name on current unit versions, counted from the rows (the counters' reference). */
export function labelCountsByName(db: Db, datasetId: number): { name: string; n: number }[] {
  return db
    .prepare(
      `SELECT a.name AS name, COUNT(*) AS n FROM labels l
       JOIN targets t ON t.id = l.target_id JOIN annotators a ON a.id = l.annotator_id
       JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       GROUP BY a.name ORDER BY a.name`,
    )
    .all(datasetId) as { name: string; n: number }[]
}
