import type { AnnotatorFigures, Plan } from '../../shared/contract/projects'
import { labelsPastK, labelsPastKOf } from '../labels/projectReads'
import type { Db } from '../store/connection'
import { agreementPairs } from './agreementPairs'
import { type DashboardRead, dashboardColumns } from './dashboardColumns'
import { type PairTally, type Tally, tallyDashboard } from './dashboardTally'
import { isKept, keptUntilChange } from './keptUntilChange'

type Named = Pick<AnnotatorFigures, 'annotatorId' | 'name'>

export interface DashboardLabels {
  tally: Tally
  /** Cohen's κ of two people */
  pair: (a: Named, b: Named) => PairTally
  /** per person, labels ranked past k on their target */
  pastK: Map<number, number>
}

const name = (datasetId: number) => `projects.dashboard.labels:${datasetId}`

/**
 * All the dashboard reads from the labels, kept until the workspace changes (a reload of the
 * Project view reads a million labels once): the one pass over the stored target and label
 * blocks, each pair's κ from the Agreement view where it has them and they are the same numbers
 * (agreementPairs.ts), and the labels past k.
 */
export function dashboardLabels(
  db: Db,
  datasetId: number,
  plan: Pick<Plan, 'k' | 'policy' | 'planned'>,
  /** Read already while nothing changed (dashboardInBackground.ts). */
  read: DashboardRead = {},
): DashboardLabels {
  return keptUntilChange(db, name(datasetId), () => {
    const columns = dashboardColumns(db, datasetId, plan.policy === 'fixed', read)
    // Without a plan there is no k to be past (k reads 1): no targets are listed for it.
    const input = { ...columns, datasetId, k: plan.k, pastK: plan.planned }
    const agreed = agreementPairs(db, datasetId, columns.labels.verdicts)
    const first = tallyDashboard({ ...input, pairs: agreed === null })
    // The Agreement view leaves out targets without a candidate: where people labelled some, counted here after all.
    const tally = agreed && first.withoutCandidate ? tallyDashboard(input) : first
    const fromAgreement = agreed !== null && tally === first
    return {
      tally,
      pair: (a: Named, b: Named) =>
        fromAgreement ? agreed(a.name, b.name) : tally.pair(a.annotatorId, b.annotatorId),
      // A label ranked past k on its target went on by hand; without a plan there is no k.
      pastK: plan.planned
        ? (labelsPastKOf(db, tally.pastKTargets, plan.k) ?? labelsPastK(db, datasetId, plan.k))
        : new Map<number, number>(),
    }
  })
}

/** Whether the dashboard's label figures are kept for the workspace as it is now (nothing is read). */
export function dashboardLabelsKept(db: Db, datasetId: number): boolean {
  return isKept(db, name(datasetId))
}
