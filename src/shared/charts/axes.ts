/** Colours and axis steps shared by every chart (and the Compare view's table swatches). */

const PALETTE = ['#4f5bd5', '#e07b39', '#3aa55d', '#c44e52', '#8c6bb1', '#7f7f7f', '#bcbd22', '#17becf']

/**
 * The colour of the k-th judge run (in the order of `judges`). Past the eight named colours the
 * hue walks by the golden angle, so twenty runs still get twenty distinct colours.
 */
export function judgeColour(k: number): string {
  if (k < PALETTE.length) return PALETTE[k]!
  const hue = Math.round((k * 137.508) % 360)
  return `hsl(${hue}, 55%, ${k % 2 === 0 ? 42 : 55}%)`
}

export const pctTick = (v: number): string => `${Number((v * 100).toFixed(1))}%`

export const pct1 = (v: number): string => `${(v * 100).toFixed(1)}%`

export interface Axis {
  max: number
  ticks: number[]
}

/** A percentage axis with round steps (2.5%, 5%, 10%, 20% or 25%) and at most five of them. */
export function pctAxis(max: number): Axis {
  const step = [0.025, 0.05, 0.1, 0.2, 0.25].find((s) => Math.ceil(max / s - 1e-9) <= 5) ?? 0.25
  const n = Math.max(1, Math.ceil(max / step - 1e-9))
  return { max: n * step, ticks: Array.from({ length: n + 1 }, (_, k) => k * step) }
}

/** A linear axis from 0 with 1-2-5 steps and at most five of them (for costs). */
export function linearAxis(max: number): Axis {
  if (!(max > 0)) return { max: 1, ticks: [0, 1] }
  const raw = max / 5
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = ([1, 2, 5, 10].find((s) => s * mag >= raw - 1e-12) ?? 10) * mag
  const n = Math.max(1, Math.ceil(max / step - 1e-9))
  return { max: n * step, ticks: Array.from({ length: n + 1 }, (_, k) => k * step) }
}
