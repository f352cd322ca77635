import type { JsonReport } from '../metricsJson'
import { ciMark, MIN_RATE_TARGETS, rateNote, withNote } from '../smallSample'
import { judgeColour, pct1, pctAxis, pctTick } from './axes'
import { baseLine, type Chart, clip, emptyPlot, figure, INK, M, PH, PLOT_H, PW, yGrid } from './frame'
import { h, num } from './svg'

export const ERROR_BY_VARIANT = { id: 'error-by-variant', title: 'Error rate by variant' }

/**
 * Error rate by candidate variant, one bar per judge run: the shape of the FaaF result tables.
 * Each bar carries its 95% interval as a whisker (Wilson's under 20 targets) and its n in the
 * hover text: a variant with two targets has a bar as tall as one with two thousand, and only the
 * whisker shows how little it rests on. A bar over fewer than MIN_RATE_TARGETS targets is drawn
 * pale with a dashed edge and its hover text carries the mark the tables print ("too few targets
 * (n=3)"), as the Compare table marks the same rate: a tall bar over three targets is not a
 * measured error rate.
 */
export function errorByVariantChart(m: Pick<JsonReport, 'judges' | 'variants'>): Chart {
  const { judges, variants } = m
  const rates = judges.flatMap((j) =>
    Object.values(j.by_variant).flatMap((f) => (f.error_rate === null ? [] : [f.error_rate])),
  )
  // The axis reaches the top whisker too, so a wide interval is drawn whole, not cut at the frame.
  const tops = judges.flatMap((j) =>
    Object.values(j.by_variant).flatMap((f) =>
      f.error_rate === null || f.error_rate_ci === null ? [] : [f.error_rate_ci[1]],
    ),
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
  const axis = pctAxis(Math.max(0, ...rates, ...tops))
  const yOf = (v: number) => M.top + PH - (v / axis.max) * PH
  const groupW = PW / variants.length
  const pad = Math.min(groupW * 0.15, 24)
  const barW = (groupW - 2 * pad) / judges.length
  let anySmall = false
  const groups = variants.map((v, i) => {
    const x0 = M.left + i * groupW
    const bars = judges.map((j, k) => {
      const f = j.by_variant[v]
      const er = f?.error_rate ?? null
      if (!f || er === null) return null
      const hgt = (er / axis.max) * PH
      const width = Math.max(barW - (barW > 4 ? 1 : 0), 0.5)
      const x = x0 + pad + k * barW
      const ci = f.error_rate_ci
      const mark = ciMark(f.error_rate_ci_method)
      const how = mark === '' ? '' : ` (${mark})`
      const note = rateNote(f.n)
      if (note !== '') anySmall = true
      const tip = withNote(
        `${j.label} · ${v}: ${pct1(er)}${ci ? ` [${pct1(ci[0])}–${pct1(ci[1])}]${how}` : ''}, n ${f.n}`,
        note,
      )
      const bar = h(
        'rect',
        {
          x,
          y: M.top + PH - hgt,
          width,
          height: Math.max(hgt, 0.5),
          fill: judgeColour(k),
          ...(note === ''
            ? {}
            : {
                'fill-opacity': SMALL_OPACITY,
                stroke: judgeColour(k),
                'stroke-dasharray': '3 2',
                'data-small': '',
              }),
        },
        h('title', {}, tip),
      )
      if (!ci) return bar
      // Rounded as every other coordinate is (svg.ts), so the same figures give the same string.
      const mid = num(x + width / 2)
      const cap = Math.min(width / 4, 5)
      const [left, right] = [num(x + width / 2 - cap), num(x + width / 2 + cap)]
      const [lo, hi] = [num(yOf(ci[0])), num(yOf(ci[1]))]
      return h(
        'g',
        {},
        bar,
        h('path', {
          d: `M${mid} ${lo}V${hi}M${left} ${lo}H${right}M${left} ${hi}H${right}`,
          stroke: INK,
          'stroke-width': 1,
          fill: 'none',
          'data-ci': '',
        }),
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
    legend: [
      ...judges.map((j, k) => ({ label: j.label, colour: judgeColour(k) })),
      ...(anySmall
        ? [
            {
              label: `pale bar: too few targets (under ${MIN_RATE_TARGETS})`,
              colour: '#8a8f98',
              opacity: SMALL_OPACITY,
            },
          ]
        : []),
    ],
  })
}

/** How strongly a bar over too few targets is filled: its colour still tells the judge. */
const SMALL_OPACITY = 0.35
