import { useMemo } from 'react'
import { narrowingChart } from '../../../../shared/charts'
import type { NarrowingSeries } from '../../../../shared/contract/metrics'
import { ChartFigure } from './SvgCharts'

/** Width of each judge's ER interval as gold accrued; `dataset` names the saved chart files. */
export function NarrowingChart({
  series,
  dataset = 'dataset',
}: {
  series: NarrowingSeries[]
  dataset?: string
}) {
  const chart = useMemo(() => narrowingChart(series), [series])
  return <ChartFigure chart={chart} dataset={dataset} testId="interval-width" />
}
