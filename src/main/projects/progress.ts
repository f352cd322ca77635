import type { Db } from '../store/connection'
import { queuePlan } from './plan'

export interface PlanProgress {
  k: number
  policy: 'open' | 'fixed'
  /** Work targets (current units, controls left out). */
  targets: number
  /** Targets holding their k labels: done for everyone. */
  complete: number
  /** Labels placed towards k × targets, each target counted up to k. */
  towards: number
  wanted: number
}

/** Progress measured against the plan, or null for a dataset without one. */
export function planProgress(db: Db, datasetId: number): PlanProgress | null {
  const plan = queuePlan(db, datasetId)
  if (!plan) return null
  const r = db
    .prepare(
      `SELECT COUNT(*) AS targets, COALESCE(SUM(t.labels_n >= @k), 0) AS complete,
         COALESCE(SUM(MIN(t.labels_n, @k)), 0) AS towards
       FROM targets t JOIN units u ON u.id = t.unit_id
       WHERE t.dataset_id = @ds AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM controls c WHERE c.target_id = t.id)`,
    )
    .get({ ds: datasetId, k: plan.k }) as { targets: number; complete: number; towards: number }
  return { k: plan.k, policy: plan.policy, ...r, wanted: r.targets * plan.k }
}
