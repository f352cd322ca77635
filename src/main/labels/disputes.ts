import type { LabelSchema } from '../../shared/labelSchemas'
import type { Db } from '../store/connection'
import { workspaceVersion } from '../store/version'

/**
 * The targets of the adjudication queue, in queue order (item, candidate, unit, target): those
 * (current unit versions only) that two or more annotators labelled differently, each marked
 * decided when a gold row settles it.
 */
export interface DisputedTarget {
  targetId: number
  decided: number
}

type Row = DisputedTarget & { ip: number; cid: number; up: number }

const ORDER = (a: Row, b: Row) => a.ip - b.ip || a.cid - b.cid || a.up - b.up || a.targetId - b.targetId

/**
 * The queue from the open disputes that migration 0020's triggers keep (`disputed_targets`)
 * plus the settled targets among those with gold, instead of grouping every label of the
 * dataset: a million labelled targets answer in milliseconds. Numeric labels are compared as
 * numbers ("4" and "4.0" agree), which the trigger-kept table does not do: those datasets, and
 * the tests' reference, take the full pass.
 */
export function disputedTargets(
  db: Db,
  schema: LabelSchema,
  datasetId: number,
  variant: string | null,
): DisputedTarget[] {
  if (schema.type === 'numeric') return disputedTargetsByScan(db, schema, datasetId, variant)
  const params = { datasetId, variant }
  const [open, decided] = disputeQueries(variant).map((sql) => db.prepare(sql).all(params) as Row[])
  return [...open!, ...decided!].sort(ORDER).map(({ targetId, decided }) => ({ targetId, decided }))
}

/**
 * The two statements of `disputedTargets` (parameters @datasetId, @variant), each row the target,
 * whether it is decided, and its place (ip, cid, up): the open disputes the triggers keep, and
 * the settled targets among those with gold. Shared with the background read
 * (disputesInBackground.ts), which orders its rows as ORDER does.
 */
export function disputeQueries(variant: string | null): [open: string, decided: string] {
  // Without a variant to match, the candidates are not read at all: one lookup fewer per row.
  const ofVariant =
    variant === null ? '' : 'JOIN candidates c ON c.id = t.candidate_id AND c.variant = @variant'
  const place = `i.position AS ip, t.candidate_id AS cid, u.position AS up`
  return [
    `SELECT t.id AS targetId, 0 AS decided, ${place}
     FROM disputed_targets d JOIN targets t ON t.id = d.target_id JOIN units u ON u.id = t.unit_id
     JOIN items i ON i.id = t.item_id ${ofVariant}
     WHERE d.dataset_id = @datasetId`,
    // From the gold rows outwards (CROSS JOIN keeps that order): the planner, guessing at an often
    // empty gold table, would otherwise walk every target of the workspace to find the few with gold.
    `SELECT t.id AS targetId, 1 AS decided, ${place}
     FROM gold g CROSS JOIN targets t ON t.id = g.target_id JOIN units u ON u.id = t.unit_id
     JOIN items i ON i.id = t.item_id ${ofVariant}
     WHERE t.dataset_id = @datasetId AND u.superseded_by IS NULL AND u.deleted_at IS NULL
       AND (SELECT COUNT(DISTINCT l.verdict) FROM labels l WHERE l.target_id = t.id AND l.verdict IS NOT NULL) > 1`,
  ]
}

/** Every label of the dataset grouped by target: the definition the queue is tested against. */
export function disputedTargetsByScan(
  db: Db,
  schema: LabelSchema,
  datasetId: number,
  variant: string | null,
): DisputedTarget[] {
  const value = schema.type === 'numeric' ? 'CAST(l.verdict AS REAL)' : 'l.verdict'
  return db
    .prepare(
      `SELECT t.id AS targetId, g.target_id IS NOT NULL AS decided
       FROM targets t
       JOIN units u ON u.id = t.unit_id JOIN items i ON i.id = t.item_id
       JOIN candidates c ON c.id = t.candidate_id
       JOIN labels l ON l.target_id = t.id AND l.verdict IS NOT NULL
       LEFT JOIN gold g ON g.target_id = t.id
       WHERE t.dataset_id = @datasetId AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND (@variant IS NULL OR c.variant = @variant)
       GROUP BY t.id
       HAVING COUNT(*) >= 2 AND COUNT(DISTINCT ${value}) > 1
       ORDER BY i.position, t.candidate_id, u.position, t.id`,
    )
    .all({ datasetId, variant }) as DisputedTarget[]
}

const lists = new WeakMap<Db, { key: string; list: DisputedTarget[] }>()

/** What a kept list is valid for: this workspace version, dataset, variant and schema. */
export function disputesKey(db: Db, schema: LabelSchema, datasetId: number, variant: string | null): string {
  return `${workspaceVersion(db)}:${datasetId}:${variant ?? ''}:${JSON.stringify(schema)}`
}

/** Whether the list for `key` is kept already. */
export function hasDisputes(db: Db, key: string): boolean {
  return lists.get(db)?.key === key
}

/** Keeps a list worked out elsewhere (in the background) for `key`, which the caller checked. */
export function keepDisputes(db: Db, key: string, list: DisputedTarget[]): void {
  lists.set(db, { key, list })
}

/**
 * The same list, kept while the workspace is unchanged (any write moves its version): paging
 * through the queue or reopening the Agreement view does not list a million targets again.
 */
export function disputedTargetsOnce(
  db: Db,
  schema: LabelSchema,
  datasetId: number,
  variant: string | null,
): DisputedTarget[] {
  const key = disputesKey(db, schema, datasetId, variant)
  const hit = lists.get(db)
  if (hit?.key === key) return hit.list
  const list = disputedTargets(db, schema, datasetId, variant)
  lists.set(db, { key, list })
  return list
}
