import { checkVerdict, LabelSchema } from '../../shared/labelSchemas'
import { ServiceError } from '../app/errors'
import { controlAnswers, referenceAnswers, storedGoldLookup, storedGoldTargets } from '../labels/projectReads'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'
import { type ControlSampleSpec, controlSampleSize, drawControls, everyTargetRefusal } from './controlSample'
import { getPlan, requireDataset } from './plan'
import { wilsonInterval } from './wilson'

export interface ControlAnswer {
  targetId: number
  verdict: string
}

/**
 * Marks targets as controls, from their stored gold or with the answers given (an imported
 * file). All or nothing: a target outside the dataset, one without gold, a verdict the schema
 * does not allow, or an answer that contradicts an adjudicated decision refuses the whole call.
 */
export function setControls(
  db: Db,
  datasetId: number,
  input: {
    fromGold: readonly number[]
    answers: readonly ControlAnswer[]
    /** The dataset's reference labels taken as known answers (stored as gold: the release's). */
    fromReference?: readonly ControlAnswer[]
    /** Draw this many (or this share of the targets) from the gold and reference answers, not all. */
    sample?: ControlSampleSpec
    /** The lead confirmed that every target may become a control, leaving nothing to label. */
    everyTarget?: boolean
    /** Say what would be marked and change nothing. */
    preview?: boolean
  },
  at: string,
): {
  added: number
  already: number
  controls: number
  targets: number
  toLabel: number
  preview: boolean
} {
  requireDataset(db, datasetId)
  const schemaText = (
    db.prepare('SELECT label_schema AS s FROM datasets WHERE id = ?').get(datasetId) as { s: string }
  ).s
  const schema = parseJson(LabelSchema, schemaText, 'datasets.label_schema')
  const inDataset = db.prepare('SELECT 1 FROM targets WHERE id = ? AND dataset_id = ?')
  const goldOf = storedGoldLookup(db)
  const wanted = new Map<number, { verdict: string; source: 'gold' | 'file' }>()
  const problems: string[] = []
  const targets = currentTargetCount(db, datasetId)
  let fromGold = input.fromGold
  let fromReference = input.fromReference ?? []
  if (input.sample) {
    const pool = [...fromGold, ...fromReference.map((a) => a.targetId)]
    const n = controlSampleSize(input.sample, targets, new Set(pool).size)
    const drawn = new Set(drawControls(pool, n, getPlan(db, datasetId).seed))
    fromGold = fromGold.filter((t) => drawn.has(t))
    fromReference = fromReference.filter((a) => drawn.has(a.targetId) && !fromGold.includes(a.targetId))
  }
  for (const targetId of fromGold) {
    if (!inDataset.get(targetId, datasetId)) problems.push(`target ${targetId} is not in this dataset`)
    else {
      const g = goldOf(targetId)
      if (!g) problems.push(`target ${targetId} has no gold to take the answer from`)
      else wanted.set(targetId, { verdict: g.verdict, source: 'gold' })
    }
  }
  for (const a of fromReference) {
    const bad = checkVerdict(schema, a.verdict)
    if (bad) problems.push(`target ${a.targetId}'s reference label: ${bad}`)
    else wanted.set(a.targetId, { verdict: a.verdict, source: 'gold' })
  }
  for (const a of input.answers) {
    if (!inDataset.get(a.targetId, datasetId)) {
      problems.push(`target ${a.targetId} is not in this dataset`)
      continue
    }
    const bad = checkVerdict(schema, a.verdict)
    if (bad) problems.push(`target ${a.targetId}: ${bad}`)
    const g = goldOf(a.targetId)
    if (g && g.source === 'adjudicated' && g.verdict !== a.verdict)
      problems.push(
        `target ${a.targetId}: the control's answer "${a.verdict}" disagrees with the adjudicated gold "${g.verdict}"`,
      )
    wanted.set(a.targetId, { verdict: a.verdict, source: 'file' })
  }
  if (problems.length > 0)
    throw new ServiceError(
      'bad_input',
      `No controls were marked: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    )
  const upsert = db.prepare(
    `INSERT INTO controls (target_id, dataset_id, verdict, source, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (target_id) DO UPDATE SET verdict = excluded.verdict, source = excluded.source`,
  )
  const marked = currentControls(db, datasetId)
  const fresh = [...wanted.keys()].filter((t) => !marked.has(t)).length
  const after = marked.size + fresh
  // A project whose every target is a control has nothing to label: said first, done only when confirmed.
  if (targets > 0 && after >= targets && !input.everyTarget && !input.preview)
    throw new ServiceError('bad_input', everyTargetRefusal(targets))
  const summary = { targets, toLabel: Math.max(0, targets - after) }
  // Those already controls keep their place; their answer is brought up to date, not counted as new.
  const already = wanted.size - fresh
  if (input.preview) return { added: fresh, already, controls: after, ...summary, preview: true }
  db.transaction(() => {
    for (const [targetId, c] of wanted) upsert.run(targetId, datasetId, c.verdict, c.source, at)
  })()
  return { added: fresh, already, controls: controlCount(db, datasetId), ...summary, preview: false }
}

const ON_CURRENT_UNITS = `JOIN units u ON u.id = t.unit_id
  WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL`

/** Controls on the dataset's current units (a control on an older wording takes no target's place). */
function currentControls(db: Db, datasetId: number): Set<number> {
  return new Set(
    db
      .prepare(`SELECT t.id FROM controls c JOIN targets t ON t.id = c.target_id ${ON_CURRENT_UNITS}`)
      .pluck()
      .all(datasetId) as number[],
  )
}

/** Targets on the dataset's current units, controls included. */
function currentTargetCount(db: Db, datasetId: number): number {
  return (
    db.prepare(`SELECT COUNT(*) AS n FROM targets t ${ON_CURRENT_UNITS}`).get(datasetId) as { n: number }
  ).n
}

export function clearControls(db: Db, datasetId: number, targetIds: readonly number[]): { controls: number } {
  requireDataset(db, datasetId)
  const del = db.prepare('DELETE FROM controls WHERE target_id = ? AND dataset_id = ?')
  db.transaction(() => {
    for (const id of targetIds) del.run(id, datasetId)
  })()
  return { controls: controlCount(db, datasetId) }
}

export function controlCount(db: Db, datasetId: number): number {
  return (
    db.prepare('SELECT COUNT(*) AS n FROM controls WHERE dataset_id = ?').get(datasetId) as { n: number }
  ).n
}

export function listControls(db: Db, datasetId: number) {
  requireDataset(db, datasetId)
  return db
    .prepare(
      'SELECT target_id AS targetId, verdict, source FROM controls WHERE dataset_id = ? ORDER BY target_id',
    )
    .all(datasetId) as { targetId: number; verdict: string; source: 'gold' | 'file' }[]
}

/** Each annotator's answers on controls: how many, how many right, and a 95% Wilson interval. */
export function controlAccuracy(db: Db, datasetId: number) {
  return accuracyOf(controlAnswers(db, datasetId))
}

/** Per person (ascending ids): answers on controls, how many right, and a 95% Wilson interval. */
export function accuracyOf(rows: readonly { annotatorId: number; answered: number; correct: number }[]) {
  return new Map(
    rows.map((r) => [
      r.annotatorId,
      {
        answered: r.answered,
        correct: r.correct,
        accuracy: r.answered > 0 ? r.correct / r.answered : null,
        interval: wilsonInterval(r.correct, r.answered),
      },
    ]),
  )
}

/** A dataset's controls as columns, by target ascending: each answer ('' when not known, from a package). */
export interface ControlAnswers {
  target: Int32Array
  verdict: string[]
}

export function controlAnswersOf(db: Db, datasetId: number): ControlAnswers {
  const rows = db
    .prepare('SELECT target_id, verdict FROM controls WHERE dataset_id = ? ORDER BY target_id')
    .raw()
    .all(datasetId) as [number, string][]
  return { target: Int32Array.from(rows, (r) => r[0]), verdict: rows.map((r) => r[1]) }
}

/** The dataset's reference labels usable as control answers (see labels/projectReads.ts). */
export function referenceControlAnswers(db: Db, datasetId: number) {
  return referenceAnswers(db, datasetId)
}

/** Targets of a dataset holding a stored gold row (adjudicated or imported), current units only. */
export function goldTargets(db: Db, datasetId: number): number[] {
  return storedGoldTargets(db, datasetId)
}
