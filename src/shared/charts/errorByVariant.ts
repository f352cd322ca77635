import type { JsonReport } from '../metricsJson'
import { judgeColour, pct1, pctAxis, pctTick } from './axes'
import { baseLine, type Chart, clip, emptyPlot, figure, M, PH, PLOT_H, PW, yGrid } from './frame'
import { h } from './svg'

export const ERROR_BY_VARIANT = { id: 'error-by-variant', title: 'Error rate by variant' }

/** Error rate by candidate variant, one bar per judge run: the shape of the FaaF result tables. */
export function errorByVariantChart(m: Pick<JsonReport, 'judges' | 'variants'>): Chart {
  const { judges, variants } = m
  const rates = judges.flatMap((j) =>
    Object.values(j.by_variant).flatMap((f) => (f.error_rate === null ? [] : [f.error_rate])),
  )
  if (variants.length === 0 || rates.length === 0)
    return figure({
      ...ERROR_BY_VARIANT,
      empty: true,
      plot: emptyPlot(
        judges.length === 0
          ? 'No judge run yet. Each variant gets one bar per judge once a judge has run on targets with gold labels.'
          : 'No error rate by variant yet: the bars appear once a judge has verdicts on targets with gold labels.',
      ),
    })
  const axis = pctAxis(Math.max(0, ...rates))
  const groupW = PW / variants.length
  const pad = Math.min(groupW * 0.15, 24)
  const barW = (groupW - 2 * pad) / judges.length
  const groups = variants.map((v, i) => {
    const x0 = M.left + i * groupW
    const bars = judges.map((j, k) => {
      const er = j.by_variant[v]?.error_rate ?? null
      if (er === null) return null
      const hgt = (er / axis.max) * PH
      return h(
        'rect',
        {
          x: x0 + pad + k * barW,
          y: M.top + PH - hgt,
          width: Math.max(barW - (barW > 4 ? 1 : 0), 0.5),
          height: Math.max(hgt, 0.5),
          fill: judgeColour(k),
        },
        h('title', {}, `${j.label} · ${v}: ${pct1(er)}`),
      )
    })
    const name = h(
      'text',
      { x: x0 + groupW / 2, y: PLOT_H - M.bottom + 16, 'text-anchor': 'middle' },
      clip(v, 24),
      h('title', {}, v),
    )
    return h('g', {}, ...bars, name)
  })
  return figure({
    ...ERROR_BY_VARIANT,
    plot: [...yGrid(axis, pctTick), ...groups, baseLine()],
    legend: judges.map((j, k) => ({ label: j.label, colour: judgeColour(k) })),
  })
}
