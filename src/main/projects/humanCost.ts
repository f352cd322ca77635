import type { DatasetMetrics } from '../../shared/contract/metrics'
import type { Db } from '../store/connection'

/**
 * Puts each annotator on the Compare view's cost axis. A person's cost is what their labels on
 * the targets the judges are scored on actually took: the active seconds recorded on those
 * labels, in hours, × their hourly rate (or the dataset's). The cost per 1,000 targets divides
 * that by the labels the time was recorded on: a label saved from the CLI or merged from a bundle
 * carries no time, and counting it would spread the timed labels' cost over work it does not
 * cover. Annotators without a rate, or without recorded time, get no point.
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
  return {
    ...metrics,
    humans: metrics.humans.map((h) => {
      const rate = own.get(h.annotatorId) ?? plan?.rate ?? null
      const seconds = h.activeSeconds ?? 0
      const timed = h.timedLabels ?? 0
      if (rate === null || seconds <= 0 || timed === 0) return { ...h, cost: null, costPer1000: null }
      const cost = (seconds / 3600) * rate
      return { ...h, cost, costPer1000: (cost / timed) * 1000 }
    }),
  }
}
