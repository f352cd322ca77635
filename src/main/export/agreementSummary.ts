import { currentLabelRows } from '../labels/reads'
import { cohenKappa, fleissKappa, percentAgreement } from '../metrics/stats/agreement'
import { listControls } from '../projects/controls'
import type { Db } from '../store/connection'

export interface PairAgreement {
  a: string
  b: string
  /** Targets both labelled. */
  shared: number
  kappa: number | null
}

export interface AgreementSummary {
  /** Targets labelled by at least two annotators: the only ones agreement can be measured on. */
  sharedTargets: number
  /** Mean share of agreeing annotator pairs per shared target. */
  percentAgreement: number | null
  fleissKappa: number | null
  /** Cohen's κ for every pair of annotators that share at least one target. */
  pairs: PairAgreement[]
}

/**
 * Agreement among the given annotators on current targets, for the dataset card: control items
 * left out, as the Agreement view leaves them out.
 */
export function agreementSummary(
  db: Db,
  datasetId: number,
  annotators: readonly { id: number; name: string }[],
): AgreementSummary {
  const column = new Map(annotators.map((a, i) => [a.id, i]))
  const controls = new Set(listControls(db, datasetId).map((c) => c.targetId))
  const byTarget = new Map<number, (string | null)[]>()
  for (const r of currentLabelRows(db, datasetId)) {
    const col = column.get(r.a)
    if (col === undefined || controls.has(r.t)) continue
    const row = byTarget.get(r.t) ?? annotators.map(() => null)
    byTarget.set(r.t, row)
    row[col] = r.v
  }
  // Targets with a single label carry no agreement information; dropping them keeps the
  // matrix to the overlap, which is what a card reader cares about.
  const ratings = [...byTarget.values()].filter((row) => row.filter((v) => v !== null).length > 1)
  const pairs: PairAgreement[] = []
  for (let i = 0; i < annotators.length; i++)
    for (let j = i + 1; j < annotators.length; j++) {
      const both = ratings.filter((r) => r[i] != null && r[j] != null)
      if (both.length === 0) continue
      pairs.push({
        a: annotators[i]!.name,
        b: annotators[j]!.name,
        shared: both.length,
        kappa: cohenKappa(
          both.map((r) => r[i] ?? null),
          both.map((r) => r[j] ?? null),
        ),
      })
    }
  return {
    sharedTargets: ratings.length,
    percentAgreement: percentAgreement(ratings),
    fleissKappa: fleissKappa(ratings),
    pairs,
  }
}
