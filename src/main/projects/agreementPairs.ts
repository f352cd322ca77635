import { datasetAgreement } from '../metrics/datasetAgreement'
import { isMemoised } from '../metrics/snapshot'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import type { PairTally } from './dashboardTally'

/**
 * Cohen's κ of each pair of people as the Agreement view worked it out, for the dashboard to
 * show instead of counting its own, or null where that could change a digit. Both count the
 * same targets (current units, no controls) and the same labels, and work κ out by the same
 * formula, but they add up chance agreement over the verdicts in different orders: the same
 * bits only when at most two verdicts are in use (two terms sum alike in either order). So
 * only then, for a categorical dataset whose labels all use its schema's verdicts (the
 * Agreement view leaves any other out), and only when the Agreement view's figures are kept for
 * the workspace as it is now: they are never worked out here.
 */
export function agreementPairs(
  db: Db,
  datasetId: number,
  verdicts: readonly string[],
): ((a: string, b: string) => PairTally) | null {
  if (verdicts.length > 2 || !isMemoised(db, datasetId, 'agreement')) return null
  const schema = getDataset(db, datasetId).labelSchema
  if (schema.type !== 'categorical' || !verdicts.every((v) => schema.values.includes(v))) return null
  const byNames = new Map<string, PairTally>()
  for (const p of datasetAgreement(db, datasetId).cohenPairs) {
    byNames.set(`${p.a}\u0000${p.b}`, { n: p.n, kappa: p.kappa })
    byNames.set(`${p.b}\u0000${p.a}`, { n: p.n, kappa: p.kappa })
  }
  return (a, b) => byNames.get(`${a}\u0000${b}`) ?? { n: 0, kappa: null }
}
