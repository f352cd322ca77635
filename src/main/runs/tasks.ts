import { z } from 'zod'
import { Json, Triplet } from '../../shared/domain'
import type { UnitKind } from '../../shared/labelSchemas'
import type { CandidateTask, GenerateTask } from '../judges/types'
import type { Db } from '../store/connection'
import { parseJson } from '../store/repos/rows'
import type { RunSlice } from './config'

interface TargetRow {
  target_id: number
  unit_id: number
  kind: UnitKind
  unit_text: string
  triplet: string | null
  candidate_id: number
  variant: string
  candidate_text: string
  item_id: number
  position: number
  question: string | null
  reference: string
  metadata: string
}

function sliceClause(slice: RunSlice, params: unknown[]): string {
  const parts: string[] = []
  if (slice.itemFrom !== undefined) {
    parts.push('i.position >= ?')
    params.push(slice.itemFrom)
  }
  if (slice.itemTo !== undefined) {
    parts.push('i.position <= ?')
    params.push(slice.itemTo)
  }
  if (slice.variants?.length) {
    parts.push(`c.variant IN (${slice.variants.map(() => '?').join(', ')})`)
    params.push(...slice.variants)
  }
  if (slice.candidateIds?.length) {
    parts.push(`c.id IN (${slice.candidateIds.map(() => '?').join(', ')})`)
    params.push(...slice.candidateIds)
  }
  return parts.length ? ` AND ${parts.join(' AND ')}` : ''
}

/**
 * The dataset's current targets of the given unit kinds, one task per candidate, in item order.
 * Superseded and deleted units are left out: a run judges what the person sees now.
 */
export function loadJudgeTasks(
  db: Db,
  datasetId: number,
  kinds: readonly UnitKind[],
  slice: RunSlice,
): CandidateTask[] {
  const params: unknown[] = [datasetId, ...kinds]
  const where = sliceClause(slice, params)
  const rows = db
    .prepare(
      `SELECT t.id AS target_id, u.id AS unit_id, u.kind, u.text AS unit_text, u.triplet,
         c.id AS candidate_id, c.variant, c.text AS candidate_text,
         i.id AS item_id, i.position, i.question, i.reference, i.metadata
       FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
       JOIN items i ON i.id = t.item_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND u.kind IN (${kinds.map(() => '?').join(', ')})${where}
       ORDER BY i.position, c.id, u.position, u.id`,
    )
    .all(...params) as TargetRow[]
  const tasks: CandidateTask[] = []
  let current: CandidateTask | null = null
  for (const r of rows) {
    if (!current || current.candidate.id !== r.candidate_id) {
      if (slice.limit !== undefined && tasks.length >= slice.limit) break
      current = {
        item: {
          id: r.item_id,
          question: r.question,
          reference: r.reference,
          metadata: parseJson(Json, r.metadata, 'items.metadata'),
        },
        candidate: { id: r.candidate_id, variant: r.variant, text: r.candidate_text },
        targets: [],
      }
      tasks.push(current)
    }
    current.targets.push({
      targetId: r.target_id,
      unitId: r.unit_id,
      kind: r.kind,
      text: r.unit_text,
      triplet: r.triplet === null ? null : parseJson(Triplet.nullable(), r.triplet, 'units.triplet'),
    })
  }
  return tasks
}

/**
 * The ids of the targets `loadJudgeTasks` would load now, in no particular order, or null for a
 * slice cut at a number of candidates (which ones depends on the order): a fraction of the cost
 * of loading the tasks, so a caller holding tasks can tell whether they are still the current ones.
 */
export function judgeTargetIds(
  db: Db,
  datasetId: number,
  kinds: readonly UnitKind[],
  slice: RunSlice,
): number[] | null {
  if (slice.limit !== undefined) return null
  const params: unknown[] = [datasetId, ...kinds]
  const where = sliceClause(slice, params)
  return db
    .prepare(
      `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
       JOIN items i ON i.id = t.item_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND u.kind IN (${kinds.map(() => '?').join(', ')})${where}`,
    )
    .pluck()
    .all(...params) as number[]
}

/** Whether the tasks hold exactly these targets. */
export function tasksHoldTargets(tasks: readonly CandidateTask[], ids: readonly number[]): boolean {
  const held = new Set<number>()
  for (const t of tasks) for (const x of t.targets) held.add(x.targetId)
  return held.size === ids.length && ids.every((id) => held.has(id))
}

/**
 * The current wording of the targets `loadJudgeTasks` would load (target id → unit text), or
 * null where `judgeTargetIds` gives null. A unit edited in place keeps its targets, so their
 * ids alone cannot tell held tasks from current ones.
 */
export function judgeTargetTexts(
  db: Db,
  datasetId: number,
  kinds: readonly UnitKind[],
  slice: RunSlice,
): Map<number, string> | null {
  if (slice.limit !== undefined) return null
  const params: unknown[] = [datasetId, ...kinds]
  const where = sliceClause(slice, params)
  const rows = db
    .prepare(
      `SELECT t.id, u.text FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
       JOIN items i ON i.id = t.item_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND u.kind IN (${kinds.map(() => '?').join(', ')})${where}`,
    )
    .raw()
    .all(...params) as [number, string][]
  return new Map(rows)
}

/** Whether the tasks hold exactly these targets, each with this wording. */
export function tasksHoldWording(
  tasks: readonly CandidateTask[],
  texts: ReadonlyMap<number, string>,
): boolean {
  let held = 0
  for (const t of tasks)
    for (const x of t.targets) {
      if (texts.get(x.targetId) !== x.text) return false
      held++
    }
  return held === texts.size
}

const ItemRow = z.object({
  item_id: z.number(),
  question: z.string().nullable(),
  reference: z.string(),
  metadata: z.string(),
  candidate_id: z.number().nullable(),
  variant: z.string().nullable(),
  candidate_text: z.string().nullable(),
})

/** Extraction tasks: one per item, or one per candidate for per-candidate generators. */
export function loadGenerateTasks(
  db: Db,
  datasetId: number,
  perCandidate: boolean,
  slice: RunSlice,
): GenerateTask[] {
  const params: unknown[] = [datasetId]
  const where = sliceClause(
    perCandidate ? slice : { ...slice, variants: undefined, candidateIds: undefined },
    params,
  )
  const sql = perCandidate
    ? `SELECT i.id AS item_id, i.question, i.reference, i.metadata, c.id AS candidate_id, c.variant, c.text AS candidate_text
       FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ?${where} ORDER BY i.position, c.id`
    : `SELECT i.id AS item_id, i.question, i.reference, i.metadata, NULL AS candidate_id, NULL AS variant, NULL AS candidate_text
       FROM items i WHERE i.dataset_id = ?${where} ORDER BY i.position`
  const rows = z.array(ItemRow).parse(db.prepare(sql).all(...params))
  const limited = slice.limit !== undefined ? rows.slice(0, slice.limit) : rows
  return limited.map((r) => ({
    item: {
      id: r.item_id,
      question: r.question,
      reference: r.reference,
      metadata: parseJson(Json, r.metadata, 'items.metadata'),
    },
    ...(r.candidate_id !== null
      ? { candidate: { id: r.candidate_id, variant: r.variant ?? '', text: r.candidate_text ?? '' } }
      : {}),
  }))
}

/**
 * Which of `kinds` the dataset has current units of, with targets inside the slice (its candidate
 * limit aside): one probe per kind that stops at the first target, so a large dataset that fits is
 * answered at once.
 */
export function unitKindsPresent(
  db: Db,
  datasetId: number,
  kinds: readonly UnitKind[],
  slice: RunSlice,
): UnitKind[] {
  return kinds.filter((kind) => {
    const params: unknown[] = [datasetId, kind]
    const where = sliceClause(slice, params)
    return (
      db
        .prepare(
          `SELECT EXISTS (SELECT 1 FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
             JOIN items i ON i.id = t.item_id
             WHERE t.dataset_id = ? AND u.kind = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL${where})`,
        )
        .pluck()
        .get(...params) === 1
    )
  })
}
