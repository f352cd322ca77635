import type { Db } from '../../../src/main/store/connection'
import type { RankedLabel } from './projectReadsRows'

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'
const NOT_CONTROL = 'NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)'

/**
 * A person's share of an open plan: k × targets spread over the people, never more than every
 * target (one person labels a target once, however few people there are, e.g. on a laptop).
 */
export function openShare(k: number, targets: number, people: number): number {
  return Math.min(targets, Math.ceil((k * targets) / Math.max(1, people)))
}

export interface VariantShare {
  variant: string
  labels: number
  /** Targets of this variant in their assignment (fixed) or their share of k × targets (open). */
  assigned: number | null
}

/**
 * The dashboard's annotator × variant grid: how many labels each person has placed on each
 * variant's work (controls and edited units left out) against what they are meant to do there,
 * so a lead sees who has not started the poor answers, not only who is behind overall.
 */
export function progressByVariant(
  db: Db,
  datasetId: number,
  plan: { planned: boolean; policy: 'open' | 'fixed'; k: number; annotators: number },
  variants: readonly { variant: string; targets: number }[],
  labels: readonly RankedLabel[],
  people: readonly number[],
): Map<number, VariantShare[]> {
  const variantOf = new Map(
    (
      db
        .prepare(
          `SELECT t.id, c.variant FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
           WHERE t.dataset_id = ? AND ${CURRENT} AND ${NOT_CONTROL}`,
        )
        .all(datasetId) as { id: number; variant: string }[]
    ).map((r) => [r.id, r.variant]),
  )
  const placed = new Map<string, number>()
  for (const l of labels) {
    const v = variantOf.get(l.targetId)
    if (v === undefined) continue
    const key = `${l.annotatorId}|${v}`
    placed.set(key, (placed.get(key) ?? 0) + 1)
  }
  const fixed = new Map<string, number>()
  if (plan.policy === 'fixed')
    for (const r of db
      .prepare(
        `SELECT a.annotator_id AS id, c.variant, COUNT(*) AS n FROM assignments a
         JOIN targets t ON t.item_id = a.item_id JOIN units u ON u.id = t.unit_id
         JOIN candidates c ON c.id = t.candidate_id
         WHERE a.dataset_id = ? AND t.dataset_id = a.dataset_id AND ${CURRENT} AND ${NOT_CONTROL}
         GROUP BY a.annotator_id, c.variant`,
      )
      .all(datasetId) as { id: number; variant: string; n: number }[])
      fixed.set(`${r.id}|${r.variant}`, r.n)
  const out = new Map<number, VariantShare[]>()
  for (const id of people)
    out.set(
      id,
      variants.map(({ variant, targets }) => ({
        variant,
        labels: placed.get(`${id}|${variant}`) ?? 0,
        assigned:
          plan.policy === 'fixed'
            ? (fixed.get(`${id}|${variant}`) ?? 0)
            : plan.planned
              ? openShare(plan.k, targets, plan.annotators)
              : null,
      })),
    )
  return out
}
