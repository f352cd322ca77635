import type { Interval } from './bootstrap'
import type { ClusterPattern } from './clusterBootstrap'
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

/**
 * What the interval needs of a figure's candidates: their number and the exact integer sums
 * Σa, Σb, Σa², Σab, Σb². Sums, not patterns, so one pass over the candidates gives them without
 * grouping the candidates first (clusterTally.ts), and the same candidates give the same sums
 * in any order or grouping.
 */
export interface RatioSums {
  m: number
  a: number
  b: number
  aa: number
  ab: number
  bb: number
}

export const noSums = (): RatioSums => ({ m: 0, a: 0, b: 0, aa: 0, ab: 0, bb: 0 })

/** Adds `count` candidates whose figure is a / b. */
export function addCandidates(s: RatioSums, a: number, b: number, count: number): void {
  s.m += count
  s.a += count * a
  s.b += count * b
  s.aa += count * a * a
  s.ab += count * a * b
  s.bb += count * b * b
}

export function addSums(into: RatioSums, s: RatioSums): void {
  into.m += s.m
  into.a += s.a
  into.b += s.b
  into.aa += s.aa
  into.ab += s.ab
  into.bb += s.bb
}

/** The ratio Σa / Σb and its cluster-robust normal interval (unclamped), from the sums. */
export function ratioInterval(s: RatioSums, level = 0.95): Interval | null {
  const m = s.m
  if (m < 2) return null
  if (!(s.b > 0)) return null
  const r = s.a / s.b
  // Σ(a − R·b)² = (Σa²·B² − 2·A·B·Σab + A²·Σb²) / B², with R = A / B. Taken in floating point
  // the three terms cancel badly when the residuals are small against the sums; in integers
  // (BigInt: the products pass 2⁵³) it is exact, whatever order the candidates came in.
  const A = BigInt(s.a)
  const B = BigInt(s.b)
  const numerator = BigInt(s.aa) * B * B - 2n * A * B * BigInt(s.ab) + A * A * BigInt(s.bb)
  const squares = Number(numerator) / (s.b * s.b)
  const se = Math.sqrt((m / (m - 1)) * squares) / s.b
  const half = zFor(level) * se
  return [r - half, r + half]
}

/** Σa, Σb and their squares and product over the patterns. */
export function sumsOf(
  patterns: readonly ClusterPattern[],
  a: (p: ClusterPattern) => number,
  b: (p: ClusterPattern) => number,
): RatioSums {
  const s = noSums()
  for (const p of patterns) addCandidates(s, a(p), b(p), p.count)
  return s
}

/** The ratio Σa / Σb over the patterns and its cluster-robust normal interval (unclamped). */
export function ratioOfSumsInterval(
  patterns: readonly ClusterPattern[],
  a: (p: ClusterPattern) => number,
  b: (p: ClusterPattern) => number,
  level = 0.95,
): Interval | null {
  return ratioInterval(sumsOf(patterns, a, b), level)
}

/** ER's sums (a: the candidate's wrong verdicts, b: its judged targets) and F1's (2·tp over 2·tp + fp + fn). */
export interface ClusterSums {
  errorRate: RatioSums
  f1: RatioSums
}

export const noClusterSums = (): ClusterSums => ({ errorRate: noSums(), f1: noSums() })

/** Adds one candidate with these cells. */
export function addCandidate(s: ClusterSums, tp: number, fp: number, fn: number, tn: number): void {
  addCandidates(s.errorRate, fp + fn, tp + fp + fn + tn, 1)
  addCandidates(s.f1, 2 * tp, 2 * tp + fp + fn, 1)
}

const wrong = (p: ClusterPattern): number => p.fp + p.fn
const judged = (p: ClusterPattern): number => p.tp + p.fp + p.fn + p.tn
const twiceTp = (p: ClusterPattern): number => 2 * p.tp
const dice = (p: ClusterPattern): number => 2 * p.tp + p.fp + p.fn

export function clusterSumsOf(patterns: readonly ClusterPattern[]): ClusterSums {
  return { errorRate: sumsOf(patterns, wrong, judged), f1: sumsOf(patterns, twiceTp, dice) }
}

/** ER's and F1's (unsupported) cluster-robust normal intervals, from their sums. */
export function normalIntervalsOfSums(
  s: ClusterSums,
  level = 0.95,
): { errorRate: Interval | null; f1: Interval | null } {
  return { errorRate: ratioInterval(s.errorRate, level), f1: ratioInterval(s.f1, level) }
}

/** ER's and F1's (unsupported) cluster-robust normal intervals, as clusterIntervals gives them. */
export function clusterNormalIntervals(
  patterns: readonly ClusterPattern[],
  level = 0.95,
): { errorRate: Interval | null; f1: Interval | null } {
  return normalIntervalsOfSums(clusterSumsOf(patterns), level)
}
