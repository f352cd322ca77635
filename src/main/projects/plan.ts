import type { Plan, PlanInput } from '../../shared/contract/projects'
import { PlanInput as PlanInputSchema } from '../../shared/contract/projects'
import { ServiceError } from '../app/errors'
import type { Db } from '../store/connection'
import { ensureAnnotator, sourceNamed } from '../store/repos/annotators'
import { datasetVisible } from '../store/repos/datasets'
import { now } from '../store/repos/rows'
import { assignItems, overlapProblem } from './assign'
import { openedFrom } from './packageOwner'

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

function fromPackage(db: Db, datasetId: number): Plan['fromPackage'] {
  const owner = openedFrom(db, datasetId)
  return owner ? { id: owner.id, annotator: owner.annotator } : null
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
    fromPackage: fromPackage(db, datasetId),
  }
}

/** What a new list of the plan's names changes about who takes part, before it is saved. */
export interface NameChanges {
  /** Names the workspace does not know: saving the plan adds them as people. */
  added: string[]
  /** People the plan names now and would no longer, who were handed a package of the dataset. */
  droppedWithPackage: { name: string; packages: number; back: number }[]
}

export function planNameChanges(db: Db, datasetId: number, names: readonly string[]): NameChanges {
  const wanted = new Set(names.map((n) => n.trim()))
  const known = db.prepare('SELECT 1 FROM annotators WHERE name = ?')
  const added = [...wanted].filter((n) => n !== '' && !known.get(n))
  const droppedWithPackage = (
    db
      .prepare(
        `SELECT a.name, COUNT(p.id) AS packages, COUNT(p.returned_at) AS back
         FROM plan_annotators n JOIN annotators a ON a.id = n.annotator_id
         JOIN packages p ON p.annotator_id = n.annotator_id AND p.dataset_id = n.dataset_id
         WHERE n.dataset_id = ? GROUP BY a.id ORDER BY a.name`,
      )
      .all(datasetId) as { name: string; packages: number; back: number }[]
  ).filter((r) => !wanted.has(r.name))
  return { added, droppedWithPackage }
}

/** People who can take part: the named ones, else every person in the workspace (sources are not people). */
function headcount(db: Db, named: number): number {
  if (named > 0) return named
  return (db.prepare("SELECT COUNT(*) AS n FROM annotators WHERE kind <> 'source'").get() as { n: number }).n
}

/**
 * Sets a dataset's plan. Refused as a whole (nothing written) when k cannot be reached by the
 * people available, or when a fixed split has nobody to split among. A fixed policy redraws
 * the assignments from the seed; `onProgress` hears about large splits (the CLI's bar).
 */
export function setPlan(db: Db, raw: PlanInput, onProgress?: (done: number, total: number) => void): Plan {
  const input = PlanInputSchema.parse(raw)
  requireDataset(db, input.datasetId)
  // A laptop's plan is the lead's, carried by the package: redrawing it here would take away the
  // items the lead assigned, and nothing of it would travel back with the bundle.
  const from = openedFrom(db, input.datasetId)
  if (from)
    throw new ServiceError(
      'conflict',
      `This workspace was opened from ${from.annotator}'s work package: the plan is the lead's. Change it in the lead's workspace and hand out a new package`,
    )
  const sources = input.annotators.flatMap((a) => sourceNamed(db, a.name) ?? []).map((n) => `“${n}”`)
  if (sources.length > 0)
    throw new ServiceError(
      'bad_input',
      `${sources.join(', ')} ${sources.length === 1 ? 'is' : 'are'} a dataset's reference labels (a label source), not a person: a plan names people. Nothing was changed`,
    )
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
