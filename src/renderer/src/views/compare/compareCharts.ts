import { type Chart, costErrorChart, errorByVariantChart } from '../../../../shared/charts'
import type { DatasetMetrics } from '../../../../shared/contract/metrics'
import { toJsonReport } from '../../../../shared/metricsJson'

export interface CompareCharts {
  byVariant: Chart
  costError: Chart
}

/**
 * The two charts at the top of the Compare view, drawn by the report's own functions from the
 * same JSON the CLI prints, so the view and a report show one picture.
 */
export function compareCharts(m: DatasetMetrics): CompareCharts {
  // The cost chart marks a run whose calls paid the batch price itself, as `metrics`' chart does.
  const json = toJsonReport(m)
  return { byVariant: errorByVariantChart(json), costError: costErrorChart(json) }
}

/**
 * The charts of the figures last drawn, kept for as long as the page lives. Reopening the view
 * on an unchanged workspace gets the same figures back (a new object from a new answer), and
 * drawing both charts again was a good part of that reopen; the figures' JSON tells a same
 * answer apart (about 1 ms at 20 runs, against tens of milliseconds to draw).
 */
let last: { figures: DatasetMetrics; key: string; charts: CompareCharts } | null = null

export function keptCompareCharts(m: DatasetMetrics): CompareCharts {
  // The very object last drawn (the view reopened on its kept figures) needs no JSON at all.
  if (last?.figures === m) return last.charts
  const key = JSON.stringify(m)
  last = { figures: m, key, charts: last?.key === key ? last.charts : compareCharts(m) }
  return last.charts
}
