import type { Plan, PlanInput } from '../../shared/contract/projects'
import { PlanInput as PlanInputSchema } from '../../shared/contract/projects'
import { ServiceError } from '../app/errors'
import type { Db } from '../store/connection'
import { ensureAnnotator } from '../store/repos/annotators'
import { datasetVisible } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { assignItems, overlapProblem } from './assign'

interface PlanRow {
  k: number
  policy: 'open' | 'fixed'
  seed: number
  control_rate: number
  hourly_rate: number | null
}

/** The parts of a plan the queue needs, read with one indexed lookup; null without a plan. */
export interface QueuePlan {
  k: number
  policy: 'open' | 'fixed'
  seed: number
  controlRate: number
}

export function requireDataset(db: Db, datasetId: number): void {
  if (!datasetVisible(db, datasetId)) throw new ServiceError('not_found', `No dataset with id ${datasetId}`)
}

export function queuePlan(db: Db, datasetId: number): QueuePlan | null {
  const row = db
    .prepare('SELECT k, policy, seed, control_rate FROM dataset_plans WHERE dataset_id = ?')
    .get(datasetId) as Omit<PlanRow, 'hourly_rate'> | undefined
  return row ? { k: row.k, policy: row.policy, seed: row.seed, controlRate: row.control_rate } : null
}

export function latestGuidelinesVersion(db: Db, datasetId: number): number | null {
  const row = db.prepare('SELECT MAX(version) AS v FROM guidelines WHERE dataset_id = ?').get(datasetId) as {
    v: number | null
  }
  return row.v
}

export function getPlan(db: Db, datasetId: number): Plan {
  requireDataset(db, datasetId)
  const row = db.prepare('SELECT * FROM dataset_plans WHERE dataset_id = ?').get(datasetId) as
    | PlanRow
    | undefined
  const annotators = db
    .prepare(
      `SELECT a.id AS annotatorId, a.name, p.hourly_rate AS hourlyRate FROM plan_annotators p
       JOIN annotators a ON a.id = p.annotator_id WHERE p.dataset_id = ? ORDER BY a.name`,
    )
    .all(datasetId) as Plan['annotators']
  return {
    datasetId,
    planned: row !== undefined,
    k: row?.k ?? 1,
    policy: row?.policy ?? 'open',
    seed: row?.seed ?? 1,
    controlRate: row?.control_rate ?? 0,
    hourlyRate: row?.hourly_rate ?? null,
    annotators,
    guidelinesVersion: latestGuidelinesVersion(db, datasetId),
  }
}

/** People who can take part: the named ones, else everyone in the workspace. */
function headcount(db: Db, named: number): number {
  if (named > 0) return named
  return (db.prepare('SELECT COUNT(*) AS n FROM annotators').get() as { n: number }).n
}

/**
 * Sets a dataset's plan. Refused as a whole (nothing written) when k cannot be reached by the
 * people available, or when a fixed split has nobody to split among. A fixed policy redraws
 * the assignments from the seed; `onProgress` hears about large splits (the CLI's bar).
 */
export function setPlan(db: Db, raw: PlanInput, onProgress?: (done: number, total: number) => void): Plan {
  const input = PlanInputSchema.parse(raw)
  requireDataset(db, input.datasetId)
  const people = headcount(db, input.annotators.length)
  if (input.k > people) throw new ServiceError('bad_input', overlapProblem(input.k, people))
  if (input.policy === 'fixed' && input.annotators.length === 0)
    throw new ServiceError(
      'bad_input',
      'A fixed assignment needs the names of the annotators to split the items among',
    )
  db.transaction(() => {
    db.prepare(
      `INSERT INTO dataset_plans (dataset_id, k, policy, seed, control_rate, hourly_rate, updated_at)
       VALUES (@datasetId, @k, @policy, @seed, @controlRate, @hourlyRate, @at)
       ON CONFLICT (dataset_id) DO UPDATE SET k = @k, policy = @policy, seed = @seed,
         control_rate = @controlRate, hourly_rate = @hourlyRate, updated_at = @at`,
    ).run({ ...input, at: now() })
    db.prepare('DELETE FROM plan_annotators WHERE dataset_id = ?').run(input.datasetId)
    const addNamed = db.prepare(
      'INSERT INTO plan_annotators (dataset_id, annotator_id, hourly_rate) VALUES (?, ?, ?)',
    )
    const ids: number[] = []
    for (const a of input.annotators) {
      const id = ensureAnnotator(db, a.name).id
      if (ids.includes(id)) continue
      ids.push(id)
      addNamed.run(input.datasetId, id, a.hourlyRate)
    }
    db.prepare('DELETE FROM assignments WHERE dataset_id = ?').run(input.datasetId)
    if (input.policy === 'fixed') writeAssignments(db, input.datasetId, ids, input.k, input.seed, onProgress)
  })()
  return getPlan(db, input.datasetId)
}

function writeAssignments(
  db: Db,
  datasetId: number,
  annotatorIds: number[],
  k: number,
  seed: number,
  onProgress?: (done: number, total: number) => void,
): void {
  const items = (
    db.prepare('SELECT id FROM items WHERE dataset_id = ? ORDER BY id').all(datasetId) as { id: number }[]
  ).map((r) => r.id)
  const split = assignItems(items, annotatorIds, k, seed)
  const insert = db.prepare('INSERT INTO assignments (annotator_id, dataset_id, item_id) VALUES (?, ?, ?)')
  const total = items.length * k
  let done = 0
  for (const [annotatorId, list] of split)
    for (const itemId of list) {
      insert.run(annotatorId, datasetId, itemId)
      if (++done % 5000 === 0) onProgress?.(done, total)
    }
  onProgress?.(total, total)
}

/** Item ids assigned to one annotator (fixed policy), in id order. */
export function assignedItems(db: Db, datasetId: number, annotatorId: number): number[] {
  return (
    db
      .prepare(
        'SELECT item_id AS id FROM assignments WHERE annotator_id = ? AND dataset_id = ? ORDER BY item_id',
      )
      .all(annotatorId, datasetId) as { id: number }[]
  ).map((r) => r.id)
}
