import { labelledBy } from '../labels/sql'
import type { Db } from '../store/connection'
import { controlTurn } from './assign'
import { type QueuePlan, queuePlan } from './plan'

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'
const NOT_CONTROL = 'NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)'
const NOT_MINE = `NOT ${labelledBy('t.id', '@me')}`
/** The target's item is one of mine (fixed policy); binds `@me` and `@ds`. */
const MY_ITEM =
  'EXISTS (SELECT 1 FROM assignments a WHERE a.annotator_id = @me AND a.dataset_id = @ds AND a.item_id = t.item_id)'

/**
 * The SQL condition (on target alias `t`, annotator parameter `@me`) for "this target is still
 * work for me under the plan": fewer than k labels, not a control, and in a fixed plan one of my
 * items. The Items filter and the queue share it so they never disagree. Numbers are inlined:
 * they come from the plan row, never from the caller.
 */
export function planOpenCondition(plan: QueuePlan, datasetId: number): string {
  const base = `t.labels_n < ${Math.trunc(plan.k)} AND ${NOT_CONTROL}`
  if (plan.policy === 'open') return base
  return `${base} AND EXISTS (SELECT 1 FROM assignments a WHERE a.annotator_id = @me
    AND a.dataset_id = ${Math.trunc(datasetId)} AND a.item_id = t.item_id)`
}

/**
 * Cached prepared statements per connection: `annotate.next` runs once per label, and preparing
 * its queries each time would cost more than running them.
 */
const statements = new WeakMap<Db, ReturnType<typeof prepare>>()

function prepare(db: Db) {
  const level = (dir: '>' | '<=') =>
    db.prepare(
      `SELECT t.id FROM targets t INDEXED BY targets_queue JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = @ds AND t.labels_n = @level AND t.id ${dir} @after AND ${CURRENT}
         AND ${NOT_CONTROL} AND ${NOT_MINE}
       ORDER BY t.id LIMIT 1`,
    )
  // Under a fixed plan the queue serves my items' open targets in id order. Walking my share's
  // targets to find the first open one passes every closed one (at 1M targets, with 40,000 of
  // 400,000 open, 120-200 ms a call); walking each open level of targets_queue in id order and
  // asking of each row whether its item is mine passes only targets under k that are not mine
  // to serve (other people's items, or my labels waiting for a partner's). The first in id order
  // is the least of the levels' firsts, so each level's walk ends at the best found so far. Both
  // ends are one range (@lo, @hi) on the index: given as two upper bounds, SQLite walks by one
  // and only filters by the other.
  const fixedLevel = db.prepare(
    `SELECT t.id FROM targets t INDEXED BY targets_queue JOIN units u ON u.id = t.unit_id
     WHERE t.dataset_id = @ds AND t.labels_n = @level AND t.id > @lo AND t.id < @hi AND ${MY_ITEM}
       AND ${CURRENT} AND ${NOT_CONTROL} AND ${NOT_MINE}
     ORDER BY t.id LIMIT 1`,
  )
  return {
    levelAfter: level('>'),
    levelWrap: level('<='),
    fixedLevel,
    // Controls are served in an order that differs per person, so two people do not meet the
    // same control at the same moment of their work. A control is mixed in unmarked, so it is
    // served only where ordinary work would be: while it has fewer than k labels (the queue
    // never serves a target at k, and one served past it would stand out among its settled
    // neighbours), and under a fixed plan only in my own items, where every real target I am
    // served is.
    control: db.prepare(
      `SELECT t.id FROM controls c JOIN targets t ON t.id = c.target_id JOIN units u ON u.id = t.unit_id
       WHERE c.dataset_id = @ds AND ${CURRENT} AND ${NOT_MINE} AND t.id <> @after AND t.labels_n < @k
         AND (@fixed = 0 OR ${MY_ITEM})
       ORDER BY (t.id * 2654435761 + @me * 40503) % 4294967291 LIMIT 1`,
    ),
    placed: db.prepare('SELECT labelled FROM dataset_labelled WHERE dataset_id = ? AND annotator_id = ?'),
  }
}

function stmts(db: Db) {
  let s = statements.get(db)
  if (!s) {
    s = prepare(db)
    statements.set(db, s)
  }
  return s
}

type Row = { id: number } | undefined

/** The least id in (lo, hi) that any level from 0 to k - 1 gives, or null when none gives one. */
function firstOverLevels(
  s: ReturnType<typeof prepare>,
  p: { ds: number; me: number },
  k: number,
  lo: number,
  hi: number,
): number | null {
  let first: number | null = null
  for (let level = 0; level < k; level++) {
    const row = s.fixedLevel.get({ ...p, level, lo, hi: first ?? hi }) as Row
    if (row) first = row.id
  }
  return first
}

/**
 * My next target under the dataset's plan, or `undefined` when the dataset has no plan (the
 * caller keeps its reading-order queue, where everyone labels everything).
 *
 * Open policy: the targets with the fewest labels first (so k is reached evenly), never one
 * with k labels or one I labelled; after `afterTargetId` within a level, wrapping. Fixed: my
 * assigned items' targets in order. At the plan's control rate a control I have not answered
 * comes first; the reply looks the same either way.
 */
export function nextUnderPlan(
  db: Db,
  datasetId: number,
  annotatorId: number,
  afterTargetId?: number,
  /**
   * Opening the view: under a fixed plan it opens on my own items, not on a control (which may
   * sit in an item I was not given, and would show me item 1 when my work starts at item 2).
   */
  opening = false,
): number | null | undefined {
  const plan = queuePlan(db, datasetId)
  if (!plan) return undefined
  const s = stmts(db)
  const p = { ds: datasetId, me: annotatorId, after: afterTargetId ?? -1 }
  if (plan.controlRate > 0 && !(opening && plan.policy === 'fixed')) {
    const placed = (s.placed.get(datasetId, annotatorId) as { labelled: number } | undefined)?.labelled ?? 0
    if (controlTurn(plan.seed, annotatorId, placed, plan.controlRate)) {
      const c = s.control.get({ ...p, k: plan.k, fixed: plan.policy === 'fixed' ? 1 : 0 }) as Row
      if (c) return c.id
    }
  }
  if (plan.policy === 'fixed') {
    const q = { ds: datasetId, me: annotatorId }
    return (
      firstOverLevels(s, q, plan.k, p.after, Number.MAX_SAFE_INTEGER) ??
      (afterTargetId === undefined
        ? null
        : firstOverLevels(s, q, plan.k, Number.MIN_SAFE_INTEGER, afterTargetId + 1))
    )
  }
  for (let level = 0; level < plan.k; level++) {
    const q = { ...p, level }
    const row =
      (s.levelAfter.get(q) as Row) ?? (afterTargetId === undefined ? undefined : (s.levelWrap.get(q) as Row))
    if (row) return row.id
  }
  return null
}

/**
 * Under a fixed plan, the first of my assigned items in reading order (where the view opens when
 * my work there is done); null without a fixed plan or without items of mine.
 */
export function firstAssignedItem(db: Db, datasetId: number, annotatorId: number): number | null {
  const plan = queuePlan(db, datasetId)
  if (plan?.policy !== 'fixed') return null
  const row = db
    .prepare(
      `SELECT i.id FROM assignments a JOIN items i ON i.id = a.item_id
       WHERE a.annotator_id = ? AND a.dataset_id = ? ORDER BY i.position LIMIT 1`,
    )
    .get(annotatorId, datasetId) as Row
  return row?.id ?? null
}

/**
 * Of these targets, the ones the plan has settled for this annotator: k labels are on them from
 * others, or (fixed policy) their item is not assigned to them. The Annotate view marks them and
 * its "next unlabelled" passes them, so the view's own walk through an item keeps to the plan as
 * the queue does. A control is marked by the same rule as the units beside it (k labels, or an
 * item not mine), never by being a control: marked otherwise it would give itself away. Empty
 * without a plan.
 */
export function settledForMe(
  db: Db,
  datasetId: number,
  annotatorId: number,
  targetIds: readonly number[],
): Set<number> {
  const plan = queuePlan(db, datasetId)
  if (!plan || targetIds.length === 0) return new Set()
  const rows = db
    .prepare(
      `SELECT t.id FROM targets t WHERE t.id IN (SELECT value FROM json_each(@ids)) AND t.dataset_id = @ds
         AND ${NOT_MINE}
         AND CASE WHEN ${NOT_CONTROL} THEN NOT (${planOpenCondition(plan, datasetId)})
           ELSE NOT (t.labels_n < ${Math.trunc(plan.k)} AND ${plan.policy === 'fixed' ? MY_ITEM : '1'}) END`,
    )
    .all({ ids: JSON.stringify(targetIds), ds: datasetId, me: annotatorId }) as { id: number }[]
  return new Set(rows.map((r) => r.id))
}
