/**
 * The plan queue as it was before its fixed-plan walk went by level (kept as the reference the
 * property test holds the queue to): under a fixed plan, my share's targets joined to the
 * assignments and sorted by id.
 */
import { labelledBy } from '../../src/main/labels/sql'
import { controlTurn } from '../../src/main/projects/assign'
import { queuePlan } from '../../src/main/projects/plan'
import type { Db } from '../../src/main/store/connection'

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'
const NOT_CONTROL = 'NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)'
const NOT_MINE = `NOT ${labelledBy('t.id', '@me')}`
const MY_ITEM =
  'EXISTS (SELECT 1 FROM assignments a WHERE a.annotator_id = @me AND a.dataset_id = @ds AND a.item_id = t.item_id)'

type Row = { id: number } | undefined

export function referenceNext(
  db: Db,
  datasetId: number,
  annotatorId: number,
  afterTargetId?: number,
  opening = false,
): number | null | undefined {
  const plan = queuePlan(db, datasetId)
  if (!plan) return undefined
  const p = { ds: datasetId, me: annotatorId, after: afterTargetId ?? -1 }
  if (plan.controlRate > 0 && !(opening && plan.policy === 'fixed')) {
    const placed =
      (
        db
          .prepare('SELECT labelled FROM dataset_labelled WHERE dataset_id = ? AND annotator_id = ?')
          .get(datasetId, annotatorId) as { labelled: number } | undefined
      )?.labelled ?? 0
    if (controlTurn(plan.seed, annotatorId, placed, plan.controlRate)) {
      const c = db
        .prepare(
          `SELECT t.id FROM controls c JOIN targets t ON t.id = c.target_id JOIN units u ON u.id = t.unit_id
           WHERE c.dataset_id = @ds AND ${CURRENT} AND ${NOT_MINE} AND t.id <> @after AND t.labels_n < @k
             AND (@fixed = 0 OR ${MY_ITEM})
           ORDER BY (t.id * 2654435761 + @me * 40503) % 4294967291 LIMIT 1`,
        )
        .get({ ...p, k: plan.k, fixed: plan.policy === 'fixed' ? 1 : 0 }) as Row
      if (c) return c.id
    }
  }
  if (plan.policy === 'fixed') {
    const fixed = (dir: '>' | '<=') =>
      db
        .prepare(
          `SELECT t.id FROM assignments a JOIN targets t ON t.item_id = a.item_id JOIN units u ON u.id = t.unit_id
           WHERE a.annotator_id = @me AND a.dataset_id = @ds AND t.dataset_id = @ds AND t.labels_n < @k
             AND t.id ${dir} @after AND ${CURRENT} AND ${NOT_CONTROL} AND ${NOT_MINE}
           ORDER BY t.id LIMIT 1`,
        )
        .get({ ...p, k: plan.k }) as Row
    const row = fixed('>') ?? (afterTargetId === undefined ? undefined : fixed('<='))
    return row?.id ?? null
  }
  const level = (dir: '>' | '<=', n: number) =>
    db
      .prepare(
        `SELECT t.id FROM targets t JOIN units u ON u.id = t.unit_id
         WHERE t.dataset_id = @ds AND t.labels_n = @level AND t.id ${dir} @after AND ${CURRENT}
           AND ${NOT_CONTROL} AND ${NOT_MINE}
         ORDER BY t.id LIMIT 1`,
      )
      .get({ ...p, level: n }) as Row
  for (let n = 0; n < plan.k; n++) {
    const row = level('>', n) ?? (afterTargetId === undefined ? undefined : level('<=', n))
    if (row) return row.id
  }
  return null
}
