import type { DatasetMetrics } from '../../shared/contract/metrics'
import { secondsPerLabel } from '../labels/projectReads'
import type { Db } from '../store/connection'

/**
 * Puts each annotator on the Compare view's cost axis. A person's pace is their active seconds
 * per label on this dataset (controls and edited units left out); their cost is that pace over
 * the same targets the judges are scored on (the dataset's targets), at their hourly rate (or
 * the dataset's). The cost per 1,000 targets is the same pace for a thousand. Annotators without
 * a rate, or without timed labels, get no point.
 */
export function withHumanCosts(db: Db, metrics: DatasetMetrics): DatasetMetrics {
  const plan = db
    .prepare('SELECT hourly_rate AS rate FROM dataset_plans WHERE dataset_id = ?')
    .get(metrics.datasetId) as { rate: number | null } | undefined
  const own = new Map(
    (
      db
        .prepare('SELECT annotator_id AS id, hourly_rate AS rate FROM plan_annotators WHERE dataset_id = ?')
        .all(metrics.datasetId) as { id: number; rate: number | null }[]
    ).map((r) => [r.id, r.rate]),
  )
  const pace = secondsPerLabel(db, metrics.datasetId)
  return {
    ...metrics,
    humans: metrics.humans.map((h) => {
      const rate = own.get(h.annotatorId) ?? plan?.rate ?? null
      const perLabel = pace.get(h.annotatorId)
      if (rate === null || perLabel === undefined) return { ...h, cost: null, costPer1000: null }
      const hourly = (perLabel / 3600) * rate
      return { ...h, cost: hourly * metrics.targets, costPer1000: hourly * 1000 }
    }),
  }
}
