/**
 * Every chart FactLab draws, as pure functions from the metrics JSON (`toJsonReport`, the object
 * `metrics --json` prints) to a standalone SVG string. The Compare view shows these strings, the
 * reports embed them and the PNGs are rasterised from them, so the app and a report draw the
 * same picture. No DOM and no node:* here.
 */
import type { JsonReport } from '../metricsJson'
import { costErrorChart } from './costError'
import { errorByVariantChart } from './errorByVariant'
import type { Chart } from './frame'

export { judgeColour } from './axes'
export { COST_ERROR, costErrorChart, costPoints, frontLine } from './costError'
export { ERROR_BY_VARIANT, errorByVariantChart } from './errorByVariant'
export type { Chart, LegendEntry } from './frame'
export { INTERVAL_WIDTH, narrowingChart } from './narrowing'
export { escapeXml } from './svg'

/** The charts of a metrics report, in the order the report shows them. */
export function reportCharts(m: JsonReport): Chart[] {
  return [errorByVariantChart(m), costErrorChart(m)]
}
