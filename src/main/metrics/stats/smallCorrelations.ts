/**
 * Pearson, Spearman and Kendall's τ-b of one short stretch of two typed arrays, computed with the
 * very operations correlation.ts performs (simple-statistics' compensated sum, its covariance and
 * standard deviations, its midranks; Kendall's counts of ties and discordant pairs), so the
 * results are the same to the last digit. The summary level takes one per document, a few
 * responses each, and correlation.ts's arrays, copies and sorts per call cost more than the
 * arithmetic there. Stretches longer than SHORT are left to correlation.ts (the pair loops here
 * grow with the square of the length). Pure.
 */

/** Longest stretch worked out here; longer ones go to correlation.ts. */
export const SHORT = 24

/** simple-statistics' `sum`: Neumaier's compensated sum, in order. */
function sumOf(v: Float64Array, lo: number, hi: number): number {
  let sum = v[lo]!
  let correction = 0
  for (let i = lo + 1; i < hi; i++) {
    const x = v[i]!
    const t = sum + x
    if (Math.abs(sum) >= Math.abs(x)) correction += sum - t + x
    else correction += x - t + sum
    sum = t
  }
  return sum + correction
}

/** simple-statistics' `sampleCorrelation` (covariance / sd(x) / sd(y)), null where not finite. */
function sampleCorrelation(x: Float64Array, y: Float64Array, lo: number, hi: number): number | null {
  const n = hi - lo
  const mx = sumOf(x, lo, hi) / n
  const my = sumOf(y, lo, hi) / n
  let cov = 0
  let sx = 0
  let sy = 0
  for (let i = lo; i < hi; i++) {
    const dx = x[i]! - mx
    const dy = y[i]! - my
    cov += dx * dy
    sx += dx * dx
    sy += dy * dy
  }
  const r = cov / (n - 1) / Math.sqrt(sx / (n - 1)) / Math.sqrt(sy / (n - 1))
  return Number.isFinite(r) ? r : null
}

/** simple-statistics' midranks (0-based, ties sharing the mean of their places) into `out` from 0. */
function midranks(v: Float64Array, lo: number, hi: number, out: Float64Array): void {
  for (let i = lo; i < hi; i++) {
    let below = 0
    let same = 0
    const x = v[i]!
    for (let k = lo; k < hi; k++) {
      const y = v[k]!
      if (y < x) below++
      else if (y === x) same++
    }
    out[i - lo] = (below + (below + same - 1)) / 2
  }
}

function varies(v: Float64Array, lo: number, hi: number): boolean {
  for (let i = lo + 1; i < hi; i++) if (v[i] !== v[lo]) return true
  return false
}

/** The three coefficients of one stretch; `rx`, `ry` are scratch of at least SHORT numbers. */
export interface Coefficients {
  pearson: number | null
  spearman: number | null
  kendallTauB: number | null
}

export function shortCoefficients(
  x: Float64Array,
  y: Float64Array,
  lo: number,
  hi: number,
  rx: Float64Array,
  ry: Float64Array,
  out: Coefficients,
): Coefficients {
  const n = hi - lo
  out.pearson = null
  out.spearman = null
  out.kendallTauB = null
  if (n < 2) return out
  if (varies(x, lo, hi) && varies(y, lo, hi)) {
    out.pearson = sampleCorrelation(x, y, lo, hi)
    midranks(x, lo, hi, rx)
    midranks(y, lo, hi, ry)
    out.spearman = sampleCorrelation(rx, ry, 0, n)
  }
  // Knight's counts (correlation.ts) taken pair by pair: the same integers, so the same quotient.
  let tiesX = 0
  let tiesY = 0
  let tiesXY = 0
  let discordant = 0
  for (let i = lo; i < hi; i++)
    for (let j = i + 1; j < hi; j++) {
      const dx = x[i]! - x[j]!
      const dy = y[i]! - y[j]!
      if (dx === 0) tiesX++
      if (dy === 0) tiesY++
      if (dx === 0 && dy === 0) tiesXY++
      else if ((dx < 0 && dy > 0) || (dx > 0 && dy < 0)) discordant++
    }
  const n0 = (n * (n - 1)) / 2
  const untied = n0 - tiesX - tiesY + tiesXY
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY))
  out.kendallTauB = denom === 0 ? null : (untied - 2 * discordant) / denom
  return out
}
