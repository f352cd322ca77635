import { type Chart, costErrorChart, errorByVariantChart } from '../../../../shared/charts'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { toJsonReport } from '../../../../shared/metricsJson'

/**
 * The two charts at the top of the Compare view, drawn by the report's own functions from the
 * same JSON the CLI prints, so the view and a report show one picture.
 */
export function compareCharts(m: DatasetMetrics): { byVariant: Chart; costError: Chart } {
  const json = toJsonReport(m)
  return { byVariant: errorByVariantChart(json), costError: costErrorChart(json) }
}
