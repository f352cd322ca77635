import { ALL_RUNS_FREE, allRunsFree } from '../costAxis'
import { costSplitFromJson, costSplitText, splitIsEmpty } from '../costSplit'
import { humanRowLabel } from '../humanRowLabel'
import type { JsonReport } from '../metricsJson'
import { ALL_REUSED } from '../reusedReplies'
import { NO_PRICE, priceUnknown } from '../runNames'
import { judgeColour, linearAxis, pct1, pctAxis, pctTick } from './axes'
import { type Chart, emptyPlot, figure, M, PH, PLOT_H, PW, WIDTH, xGridLine, yGrid } from './frame'
import { h, num } from './svg'

/**
 * A run's name on the cost axis with what its cost rests on where the name does not say it: a
 * replay of another run from the response cache. (The name says already whether a batch
 * answered its calls, all or some: metrics/runLabel.ts.)
 */
function markedLabel(j: JsonReport['judges'][number]): string {
  return j.answered_from_cache ? `${j.label} (${ALL_REUSED})` : j.label
}

const dollars = (x: number) => `$${x.toFixed(4)}`

/** What the run's money was paid for, in the words of its cost cell: null where it paid no provider. */
function splitWords(j: JsonReport['judges'][number]): string | null {
  const split = costSplitFromJson(j.cost_split)
  return splitIsEmpty(split) ? null : costSplitText(split, dollars)
}

export const COST_ERROR = { id: 'cost-error', title: 'Cost against error rate (ringed: Pareto front)' }

const FRONT = '#c44e52'

export interface CostPoint {
  run: number
  label: string
  /** Cost per 1,000 judged targets (facts, for fact methods): one footing for every run and person. */
  cost: number
  errorRate: number
  colour: string
  onFront: boolean
  /** A judge's tokens by the price each was paid at, with their money (shown on hover). */
  split?: string | null
}

type Input = Pick<JsonReport, 'judges' | 'pareto_front'> & Partial<Pick<JsonReport, 'humans'>>

/** What the x axis measures, in the words under it. */
export const COST_AXIS = 'cost per 1,000 judged targets'

/** People (annotators with an hourly rate) share one ink, apart from the judges' colours. */
const HUMAN = '#333333'

/**
 * Judges with an error rate, coloured as in the other charts, marked when on the Pareto front; then
 * people with a cost. Every point is a cost per 1,000 judged targets: a person's total over the 20
 * targets they labelled beside a judge's over all of them would make the person look dearer, and
 * whoever labelled least look cheapest. A run with no price has no place on the axis (its $0 is
 * unknown, not free); one answered wholly from the cache is placed at what it paid, and says so.
 */
export function costPoints(m: Input): CostPoint[] {
  const front = new Set(m.pareto_front)
  const people = (m.humans ?? []).flatMap((p, i) =>
    p.cost_per_1000 == null || p.error_rate === null
      ? []
      : [
          {
            run: -1 - i,
            label: humanRowLabel(p),
            cost: p.cost_per_1000,
            errorRate: p.error_rate,
            colour: HUMAN,
            onFront: false,
          },
        ],
  )
  const judges = m.judges.flatMap((j, k) =>
    j.error_rate === null || j.cost_per_1000 === null || priceUnknown(j.cost_basis, j.calls)
      ? []
      : [
          {
            run: j.run,
            label: markedLabel(j),
            cost: j.cost_per_1000,
            errorRate: j.error_rate,
            colour: judgeColour(k),
            onFront: front.has(j.run),
            split: splitWords(j),
          },
        ],
  )
  return [...judges, ...people]
}

/** The Pareto front as the line draws it: the front's judges from cheapest to dearest. */
export function frontLine(m: Input): CostPoint[] {
  return costPoints(m)
    .filter((p) => p.onFront)
    .sort((a, b) => a.cost - b.cost || a.errorRate - b.errorRate)
}

/** Cost against error rate; the dashed red line joins the Pareto front (nothing cheaper and better). */
export function costErrorChart(m: Input): Chart {
  const points = costPoints(m)
  if (points.length === 0)
    return figure({
      ...COST_ERROR,
      empty: true,
      plot: emptyPlot(
        'No judge has an error rate yet: each judge run appears here by its cost and its error rate once it has verdicts on targets with gold labels.',
      ),
    })
  const ya = pctAxis(Math.max(...points.map((p) => p.errorRate)))
  const xa = linearAxis(Math.max(...points.map((p) => p.cost)))
  const step = xa.ticks[1] ?? 1
  const digits = Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)))
  const px = (c: number) => M.left + (c / xa.max) * PW
  const py = (e: number) => M.top + PH - (e / ya.max) * PH
  const line = frontLine(m)
  const plot = [
    ...yGrid(ya, pctTick),
    // Every run free (lexical baselines, imported runs): a $0–$1 scale would invent a spread.
    ...(allRunsFree(points.map((p) => p.cost))
      ? [h('text', { x: M.left + PW / 2, y: PLOT_H - M.bottom + 16, 'text-anchor': 'middle' }, ALL_RUNS_FREE)]
      : [
          ...xa.ticks.map((t) =>
            h(
              'g',
              {},
              xGridLine(px(t)),
              h(
                'text',
                { x: px(t), y: PLOT_H - M.bottom + 16, 'text-anchor': 'middle' },
                `$${t.toFixed(digits)}`,
              ),
            ),
          ),
          h('text', { x: WIDTH - M.right, y: PLOT_H - 4, 'text-anchor': 'end' }, COST_AXIS),
        ]),
    line.length > 1 &&
      h('polyline', {
        points: line.map((p) => `${num(px(p.cost))},${num(py(p.errorRate))}`).join(' '),
        fill: 'none',
        stroke: FRONT,
        'stroke-width': 1.5,
        'stroke-dasharray': '5 4',
      }),
    ...points.map((p) =>
      h(
        'circle',
        {
          cx: px(p.cost),
          cy: py(p.errorRate),
          r: p.onFront ? 6 : 5,
          fill: p.colour,
          stroke: p.onFront ? FRONT : undefined,
          'stroke-width': p.onFront ? 2.5 : undefined,
          'fill-opacity': 0.9,
        },
        h(
          'title',
          {},
          `${p.label}${p.split ? `\n${p.split}` : ''}\n$${p.cost.toFixed(4)} per 1,000 · ${pct1(p.errorRate)}${p.onFront ? ' · Pareto front' : ''}`,
        ),
      ),
    ),
  ]
  return figure({
    ...COST_ERROR,
    plot,
    legend: [
      ...m.judges.map((j, k) => ({
        // The mark first: a long run name is clipped in the legend, the mark must not be.
        label: priceUnknown(j.cost_basis, j.calls) ? `${NO_PRICE}, not placed: ${j.label}` : j.label,
        colour: judgeColour(k),
      })),
      ...(points.some((p) => p.run < 0)
        ? [{ label: 'people (active hours × hourly rate)', colour: HUMAN }]
        : []),
    ],
  })
}
