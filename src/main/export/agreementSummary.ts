import type { Db } from '../store/connection'

export interface AgreementSummary {
  /** Targets labelled by at least two annotators: the only ones agreement can be measured on. */
  sharedTargets: number
  /** Mean share of agreeing annotator pairs per shared target. */
  percentAgreement: number | null
  fleissKappa: number | null
  /** Cohen's κ, reported when exactly two annotators labelled. */
  cohenKappa: number | null
}

/**
 * Agreement for the dataset card. Kept local (and small) so the card does not depend on the
 * metrics service; both follow the textbook definitions, with Fleiss' κ in its form for a
 * varying number of ratings per target.
 */
export function agreementSummary(
  db: Db,
  datasetId: number,
  annotatorIds: readonly number[],
): AgreementSummary {
  const rows = db
    .prepare(
      `SELECT l.target_id AS t, l.annotator_id AS a, l.verdict AS v FROM labels l
       JOIN targets tg ON tg.id = l.target_id JOIN units u ON u.id = tg.unit_id
       WHERE tg.dataset_id = ? AND l.verdict IS NOT NULL AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND l.annotator_id IN (SELECT value FROM json_each(?))
       ORDER BY l.target_id`,
    )
    .all(datasetId, JSON.stringify(annotatorIds)) as { t: number; a: number; v: string }[]
  const byTarget = new Map<number, Map<number, string>>()
  for (const r of rows) {
    const m = byTarget.get(r.t) ?? new Map<number, string>()
    byTarget.set(r.t, m)
    m.set(r.a, r.v)
  }
  const ratings = [...byTarget.values()].filter((m) => m.size > 1).map((m) => [...m.values()])
  const pair =
    annotatorIds.length === 2
      ? [...byTarget.values()]
          .filter((m) => m.size === 2)
          .map((m) => [m.get(annotatorIds[0]!)!, m.get(annotatorIds[1]!)!] as const)
      : []
  return {
    sharedTargets: ratings.length,
    percentAgreement: pairwiseAgreement(ratings),
    fleissKappa: fleissKappa(ratings),
    cohenKappa: annotatorIds.length === 2 ? cohenKappa(pair) : null,
  }
}

function agreeingPairs(values: readonly string[]): number {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  let sum = 0
  for (const n of counts.values()) sum += n * (n - 1)
  return sum / (values.length * (values.length - 1))
}

export function pairwiseAgreement(ratings: readonly (readonly string[])[]): number | null {
  const usable = ratings.filter((r) => r.length > 1)
  if (usable.length === 0) return null
  return usable.reduce((s, r) => s + agreeingPairs(r), 0) / usable.length
}

export function fleissKappa(ratings: readonly (readonly string[])[]): number | null {
  const usable = ratings.filter((r) => r.length > 1)
  if (usable.length === 0) return null
  const observed = usable.reduce((s, r) => s + agreeingPairs(r), 0) / usable.length
  const totals = new Map<string, number>()
  let all = 0
  for (const r of usable)
    for (const v of r) {
      totals.set(v, (totals.get(v) ?? 0) + 1)
      all++
    }
  let expected = 0
  for (const n of totals.values()) expected += (n / all) ** 2
  return expected === 1 ? null : (observed - expected) / (1 - expected)
}

export function cohenKappa(pairs: readonly (readonly [string, string])[]): number | null {
  if (pairs.length === 0) return null
  const left = new Map<string, number>()
  const right = new Map<string, number>()
  let agree = 0
  for (const [a, b] of pairs) {
    if (a === b) agree++
    left.set(a, (left.get(a) ?? 0) + 1)
    right.set(b, (right.get(b) ?? 0) + 1)
  }
  const n = pairs.length
  let expected = 0
  for (const [v, c] of left) expected += (c / n) * ((right.get(v) ?? 0) / n)
  return expected === 1 ? null : (agree / n - expected) / (1 - expected)
}
