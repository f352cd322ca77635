import type { Interval } from './bootstrap'
import { type ClusterPattern, clusterCount } from './clusterBootstrap'
import { zFor } from './fisher'

/**
 * The cluster-robust normal interval of ER and F1 over candidates: the closed form the cluster
 * bootstrap (clusterBootstrap.ts) approaches once there are many candidates, at the cost of one
 * pass over the patterns instead of a thousand multinomial draws.
 *
 * Both figures are ratios of sums over candidates, R = Σa / Σb (ER: a = fp + fn, b = the
 * candidate's judged targets; F1 on unsupported: a = 2·tp, b = 2·tp + fp + fn). Linearising R
 * around its value gives the ratio estimator's variance with the candidate as the independent
 * unit (the sandwich estimator of survey sampling and cluster-robust regression):
 *
 *   SE² = m / (m − 1) · Σ_c (a_c − R·b_c)² / (Σ_c b_c)²
 *
 * and the interval R ± z·SE. With every candidate the same size it is the ordinary interval on
 * candidate means; a candidate much larger than the rest dominates the residuals and widens it,
 * as it should. The normal approximation is poor where few candidates hold the rarer outcome,
 * which is why figures.ts keeps the bootstrap below CLUSTER_NORMAL_ABOVE candidates and wherever
 * this interval reaches past 0 or 1.
 */

/** The ratio Σa / Σb over the patterns and its cluster-robust normal interval (unclamped). */
export function ratioOfSumsInterval(
  patterns: readonly ClusterPattern[],
  a: (p: ClusterPattern) => number,
  b: (p: ClusterPattern) => number,
  level = 0.95,
): Interval | null {
  const m = clusterCount(patterns)
  if (m < 2) return null
  let sumA = 0
  let sumB = 0
  for (const p of patterns) {
    sumA += p.count * a(p)
    sumB += p.count * b(p)
  }
  if (!(sumB > 0)) return null
  const r = sumA / sumB
  // A second pass over the patterns (a few dozen), not the moments Σa², Σab, Σb² in the first:
  // their difference cancels badly when the residuals are small against the sums.
  let squares = 0
  for (const p of patterns) {
    const e = a(p) - r * b(p)
    squares += p.count * e * e
  }
  const se = Math.sqrt((m / (m - 1)) * squares) / sumB
  const half = zFor(level) * se
  return [r - half, r + half]
}

const wrong = (p: ClusterPattern): number => p.fp + p.fn
const judged = (p: ClusterPattern): number => p.tp + p.fp + p.fn + p.tn
const twiceTp = (p: ClusterPattern): number => 2 * p.tp
const dice = (p: ClusterPattern): number => 2 * p.tp + p.fp + p.fn

/** ER's and F1's (unsupported) cluster-robust normal intervals, as clusterIntervals gives them. */
export function clusterNormalIntervals(
  patterns: readonly ClusterPattern[],
  level = 0.95,
): { errorRate: Interval | null; f1: Interval | null } {
  return {
    errorRate: ratioOfSumsInterval(patterns, wrong, judged, level),
    f1: ratioOfSumsInterval(patterns, twiceTp, dice, level),
  }
}
