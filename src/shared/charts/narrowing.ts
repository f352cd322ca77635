import type { NarrowingSeries } from '../contract/metrics'
import { judgeColour, linearAxis, pctAxis, pctTick } from './axes'
import { baseLine, type Chart, emptyPlot, figure, M, PH, PLOT_H, PW, WIDTH, xGridLine, yGrid } from './frame'
import { h, num } from './svg'

export const INTERVAL_WIDTH = { id: 'interval-width', title: 'Error-rate interval width as gold accrued' }

/**
 * How wide each judge's error-rate interval was as gold accrued (`metrics.labelNext`'s
 * narrowing series): one line per judge run, gaps where the width was not defined yet.
 */
export function narrowingChart(series: readonly NarrowingSeries[]): Chart {
  const widths = series.flatMap((s) => s.points.flatMap((p) => (p.width === null ? [] : [p.width])))
  if (widths.length === 0)
    return figure({
      ...INTERVAL_WIDTH,
      empty: true,
      plot: emptyPlot(
        'No interval widths yet: each judge gets a line here once it has verdicts on targets with gold labels.',
      ),
    })
  const ya = pctAxis(Math.max(...widths))
  const xa = linearAxis(Math.max(...series.flatMap((s) => s.points.map((p) => p.gold))))
  const px = (g: number) => M.left + (g / xa.max) * PW
  const py = (w: number) => M.top + PH - (w / ya.max) * PH
  const lines = series.map((s, k) => {
    const pts = s.points.filter((p) => p.width !== null).sort((a, b) => a.gold - b.gold)
    const colour = judgeColour(k)
    const label = `${s.label}: ${pts.map((p) => `${p.gold} gold ±${(((p.width ?? 0) * 100) / 2).toFixed(1)} pts`).join(', ')}`
    if (pts.length === 1)
      return h(
        'circle',
        { cx: px(pts[0]!.gold), cy: py(pts[0]!.width!), r: 3, fill: colour },
        h('title', {}, label),
      )
    return h(
      'polyline',
      {
        points: pts.map((p) => `${num(px(p.gold))},${num(py(p.width!))}`).join(' '),
        fill: 'none',
        stroke: colour,
        'stroke-width': 1.5,
      },
      h('title', {}, label),
    )
  })
  return figure({
    ...INTERVAL_WIDTH,
    plot: [
      ...yGrid(ya, pctTick),
      ...xa.ticks.map((t) =>
        h(
          'g',
          {},
          xGridLine(px(t)),
          h(
            'text',
            { x: px(t), y: PLOT_H - M.bottom + 16, 'text-anchor': 'middle' },
            String(Number(t.toFixed(6))),
          ),
        ),
      ),
      h('text', { x: WIDTH - M.right, y: PLOT_H - 4, 'text-anchor': 'end' }, 'targets with gold'),
      baseLine(),
      ...lines,
    ],
    legend: series.map((s, k) => ({ label: s.label, colour: judgeColour(k) })),
  })
}
