import { labelledBy } from '../labels/sql'
import type { Db } from '../store/connection'
import { openedFrom, type PackageOwner } from './packageOwner'
import { queuePlan } from './plan'

export interface PlanProgress {
  k: number
  policy: 'open' | 'fixed'
  /** Work targets (current units, controls left out); on a laptop, the package's share of them. */
  targets: number
  /** Targets holding their k labels: done for everyone (on a laptop: labelled by its person). */
  complete: number
  /** Labels placed towards k × targets, each target counted up to k (on a laptop: the person's). */
  towards: number
  wanted: number
  /**
   * Set on an annotator's laptop: the figures are this person's share of the lead's plan, since
   * the other people's labels are not here and k × targets could never be reached.
   */
  package?: { annotator: string } | null
}

const WORK = `FROM targets t JOIN units u ON u.id = t.unit_id
  WHERE t.dataset_id = @ds AND u.superseded_by IS NULL AND u.deleted_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)`

/** Progress measured against the plan, or null for a dataset without one. */
export function planProgress(db: Db, datasetId: number): PlanProgress | null {
  const plan = queuePlan(db, datasetId)
  if (!plan) return null
  const from = openedFrom(db, datasetId)
  if (from) return packageProgress(db, datasetId, plan, from)
  const r = db
    .prepare(
      `SELECT COUNT(*) AS targets, COALESCE(SUM(t.labels_n >= @k), 0) AS complete,
         COALESCE(SUM(MIN(t.labels_n, @k)), 0) AS towards ${WORK}`,
    )
    .get({ ds: datasetId, k: plan.k }) as { targets: number; complete: number; towards: number }
  return { k: plan.k, policy: plan.policy, ...r, wanted: r.targets * plan.k, package: null }
}

/** A laptop's progress: its person's labels on the work the package gave them. */
function packageProgress(
  db: Db,
  datasetId: number,
  plan: { k: number; policy: 'open' | 'fixed' },
  owner: PackageOwner,
): PlanProgress {
  const me = owner.annotatorId
  const mine =
    plan.policy === 'fixed'
      ? 'AND EXISTS (SELECT 1 FROM assignments a WHERE a.annotator_id = @me AND a.dataset_id = @ds AND a.item_id = t.item_id)'
      : ''
  const r = db
    .prepare(
      `SELECT COUNT(*) AS targets, COALESCE(SUM(${labelledBy('t.id', '@me')}), 0) AS done ${WORK} ${mine}`,
    )
    .get({ ds: datasetId, me }) as { targets: number; done: number }
  return {
    k: plan.k,
    policy: plan.policy,
    targets: r.targets,
    complete: r.done,
    towards: r.done,
    wanted: r.targets,
    package: { annotator: owner.annotator },
  }
}
