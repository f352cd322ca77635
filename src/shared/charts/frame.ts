import type { Axis } from './axes'
import { type Child, h, renderSvg } from './svg'

/**
 * The figure every chart is drawn in: a title on top, the plot, and the legend below, all in one
 * standalone SVG so the same string is shown in the app, saved as a file, embedded in the HTML
 * report and rasterised for the PNG. Ink and background are attributes; the app's stylesheet
 * overrides the two for its dark theme without changing the string.
 */

export const WIDTH = 560
export const TITLE_H = 26
export const PLOT_H = 250
export const M = { top: 10, right: 26, bottom: 34, left: 48 }
export const PW = WIDTH - M.left - M.right
export const PH = PLOT_H - M.top - M.bottom
export const INK = '#1c1f24'
const GRID = '#8a8f98'

export interface LegendEntry {
  label: string
  colour: string
  /** A swatch drawn pale, as the marks it stands for are. */
  opacity?: number
}

/** One chart, ready to show or save. */
export interface Chart {
  /** Names the saved files: `<dataset>-<id>.svg`. */
  id: string
  title: string
  svg: string
  width: number
  height: number
  /** No data yet: the chart only says what would fill it. */
  empty: boolean
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** Legend entries flow left to right and wrap; the width per character is an estimate. */
function legendRows(legend: readonly LegendEntry[], top: number): { nodes: Child[]; height: number } {
  const rowH = 16
  let x = 8
  let row = 0
  const nodes: Child[] = []
  for (const l of legend) {
    const label = clip(l.label, 48)
    const w = 20 + label.length * 6.2
    if (x > 8 && x + w > WIDTH) {
      x = 8
      row++
    }
    const y = top + 6 + row * rowH
    nodes.push(
      h('rect', {
        x,
        y,
        width: 10,
        height: 10,
        fill: l.colour,
        ...(l.opacity === undefined ? {} : { 'fill-opacity': l.opacity }),
      }),
      // A clipped entry keeps its whole text on hover.
      h('text', { x: x + 14, y: y + 9 }, label, label !== l.label && h('title', {}, l.label)),
    )
    x += w + 12
  }
  return { nodes, height: legend.length > 0 ? (row + 1) * rowH + 10 : 6 }
}

export function figure(opts: {
  id: string
  title: string
  /** The plot, drawn in a WIDTH × PLOT_H box. */
  plot: Child[]
  legend?: readonly LegendEntry[]
  empty?: boolean
}): Chart {
  const legend = legendRows(opts.legend ?? [], TITLE_H + PLOT_H)
  const height = TITLE_H + PLOT_H + legend.height
  const root = h(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width: WIDTH,
      height,
      viewBox: `0 0 ${WIDTH} ${height}`,
      'font-family': 'sans-serif',
      'font-size': 11,
      fill: INK,
      role: 'img',
      'aria-label': opts.title,
    },
    h('title', {}, opts.title),
    h('rect', { width: '100%', height: '100%', fill: '#ffffff' }),
    h('text', { x: WIDTH / 2, y: 17, 'text-anchor': 'middle', 'font-size': 13 }, opts.title),
    h('g', { transform: `translate(0 ${TITLE_H})` }, ...opts.plot),
    ...legend.nodes,
  )
  return {
    id: opts.id,
    title: opts.title,
    svg: renderSvg(root),
    width: WIDTH,
    height,
    empty: opts.empty ?? false,
  }
}

/** An empty chart says what would fill it instead of drawing empty axes. */
export function emptyPlot(message: string): Child[] {
  // Wrapped by hand at about 70 characters: SVG text does not wrap.
  const lines: string[] = []
  for (const word of message.split(' ')) {
    const last = lines[lines.length - 1]
    if (last !== undefined && last.length + word.length < 70) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines.map((l, i) =>
    h(
      'text',
      { x: WIDTH / 2, y: PLOT_H / 2 + (i - (lines.length - 1) / 2) * 16, 'text-anchor': 'middle' },
      l,
    ),
  )
}

/** Horizontal grid lines with their labels on the left. */
export function yGrid(axis: Axis, fmt: (v: number) => string): Child[] {
  return axis.ticks.map((t) => {
    const y = M.top + PH - (t / axis.max) * PH
    return h(
      'g',
      {},
      h('line', { x1: M.left, x2: WIDTH - M.right, y1: y, y2: y, stroke: GRID, 'stroke-opacity': 0.35 }),
      h('text', { x: M.left - 6, y: y + 4, 'text-anchor': 'end' }, fmt(t)),
    )
  })
}

export function xGridLine(x: number): Child {
  return h('line', { x1: x, x2: x, y1: M.top, y2: M.top + PH, stroke: GRID, 'stroke-opacity': 0.35 })
}

export function baseLine(): Child {
  return h('line', { x1: M.left, x2: WIDTH - M.right, y1: M.top + PH, y2: M.top + PH, stroke: GRID })
}

export { clip }
