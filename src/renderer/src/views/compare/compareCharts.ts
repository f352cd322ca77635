import { type Chart, costErrorChart, errorByVariantChart } from '../../../../shared/charts'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { toJsonReport } from '../../../../shared/metricsJson'

/**
 * The two charts at the top of the Compare view, drawn by the report's own functions from the
 * same JSON the CLI prints, so the view and a report show one picture.
 */
export function compareCharts(m: DatasetMetrics): { byVariant: Chart; costError: Chart } {
  const json = toJsonReport(m)
  // On the cost axis a batch run's money is at the batch price; its label says so.
  const batch = new Set(m.judges.filter((j) => j.batch).map((j) => j.runId))
  const costJson = {
    ...json,
    judges: json.judges.map((j) => (batch.has(j.run) ? { ...j, label: `${j.label} (batch price)` } : j)),
  }
  return { byVariant: errorByVariantChart(json), costError: costErrorChart(costJson) }
}
