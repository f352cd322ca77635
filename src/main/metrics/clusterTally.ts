import type { BootstrapOptions } from './stats/bootstrap'
import { type CandidateClusters, drawsBootstrap, type VariantClusters } from './stats/candidateIntervals'
import { patternsOf } from './stats/clusterBootstrap'
import { addCandidate, addSums, noClusterSums } from './stats/clusterNormal'

/**
 * The clusters a run's ER and F1 intervals resample (stats/clusterBootstrap.ts): its judged pairs
 * grouped by candidate, per variant. A candidate's targets share its call (FaaF, DCR) or its
 * passage and extraction (Prompt(T/F), RefChecker), so the candidate is the unit drawn.
 */

/**
 * Each target's candidate as a dense index 0…m−1, in order of first appearance (made once per
 * snapshot). Candidate ids are row ids, small and dense enough for an array lookup: a Map over a
 * million targets cost about half a second of the Compare view's cold open.
 */
export function denseClusters(candidate: Int32Array): { of: Int32Array; count: number } {
  let max = -1
  for (let i = 0; i < candidate.length; i++) if (candidate[i]! > max) max = candidate[i]!
  const index = new Int32Array(max + 1).fill(-1)
  const of = new Int32Array(candidate.length)
  let count = 0
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate[i]!
    let k = index[c]!
    if (k < 0) {
      k = count++
      index[c] = k
    }
    of[i] = k
  }
  return { of, count }
}

/**
 * Four counts per candidate. Int32 where one array serves every run; a person's own cells may be
 * narrower (humans.ts), as a cell never counts more targets than its candidate has.
 */
export type CellCounts = Int32Array | Uint16Array | Uint8Array

/** Candidates (their cells' places) in the order a pass first counted into their cells. */
export type CandidateList = readonly number[] | Int32Array

/**
 * Each target's candidate and four cells (tp, fp, fn, tn) per candidate, zeros that every pass
 * counting into them leaves zeroed (clustersInCells), so one serves every run and person of a
 * snapshot: twenty runs each counting into fresh cells touched 1.6 MB apiece at a million
 * targets, at 13–23 µs a fresh page on the bench machine. Target i's candidate sits at
 * `of[i] − base`, one of `count`.
 */
export interface CandidateCells {
  of: Int32Array
  base: number
  count: number
  cells: Int32Array
}

/**
 * Cells by candidate id where the ids lie close together (the cells over their whole range take
 * no more than a dense index per target would: the targets' own candidate column serves as `of`),
 * else by denseClusters' index. `byId` forces either (tests). Which one changes only where a
 * candidate's cells lie: the order candidates are met in, and so every figure, is the same.
 * At a million targets the dense index was 4 MB of fresh memory and a pass over the targets.
 */
export function candidateCells(candidate: Int32Array, byId?: boolean): CandidateCells {
  let lo = candidate.length === 0 ? 0 : Number.POSITIVE_INFINITY
  let hi = -1
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate[i]!
    if (c < lo) lo = c
    if (c > hi) hi = c
  }
  const span = hi < lo ? 0 : hi - lo + 1
  if (byId ?? span * 4 <= candidate.length)
    return { of: candidate, base: lo, count: span, cells: new Int32Array(span * 4) }
  const { of, count } = denseClusters(candidate)
  return { of, base: 0, count, cells: new Int32Array(count * 4) }
}

/**
 * Per variant, the clusters of the `touched` candidates whose four cells (tp, fp, fn, tn) sit in
 * `cells`, and over all variants: one pass adds up the sums the closed-form interval needs, and
 * the candidates are grouped into patterns only where the bootstrap will be drawn (few
 * candidates, or a closed form reaching past 0 or 1). Overall needs every variant's patterns.
 * The touched cells are zeroed again, so `cells` can serve the next run or person (unless
 * `clear` is false: cells of one person's own, dropped after).
 */
export function clustersInCells(
  cells: CellCounts,
  touched: readonly CandidateList[],
  boot: BootstrapOptions,
  clear = true,
): VariantClusters {
  const level = boot.level
  // Indexed loops: the lists are arrays for runs and typed arrays for people, which for-of over
  // both would handle more slowly.
  const sums = touched.map((cs) => {
    const s = noClusterSums()
    for (let k = 0; k < cs.length; k++) {
      const o = cs[k]! * 4
      addCandidate(s, cells[o]!, cells[o + 1]!, cells[o + 2]!, cells[o + 3]!)
    }
    return s
  })
  const all = noClusterSums()
  for (const s of sums) {
    addSums(all.errorRate, s.errorRate)
    addSums(all.f1, s.f1)
  }
  const overallDraws = drawsBootstrap(all, level)
  const byVariant = sums.map(
    (s, v): CandidateClusters => ({
      count: s.errorRate.m,
      sums: s,
      patterns: overallDraws || drawsBootstrap(s, level) ? patternsOf(cells, touched[v]!) : null,
    }),
  )
  const patterns = overallDraws ? byVariant.flatMap((v) => v.patterns!) : null
  // Four stores, not a fill() call per candidate: a builtin call each cost more than the writes.
  if (clear)
    for (const cs of touched)
      for (let k = 0; k < cs.length; k++) {
        const o = cs[k]! * 4
        cells[o] = 0
        cells[o + 1] = 0
        cells[o + 2] = 0
        cells[o + 3] = 0
      }
  return { byVariant, overall: { count: all.errorRate.m, sums: all, patterns } }
}

/**
 * Per variant, the clusters of one person's labels as a judge (humans.ts): `judged` holds a
 * target index and its cell (0…3, tp fp fn tn) per label counted against gold.
 */
export function clustersOfLabels(
  judged: ArrayLike<number>,
  variant: Uint16Array,
  clusters: CandidateCells,
  variants: number,
  boot: BootstrapOptions,
): VariantClusters {
  const { of, base, cells: scratch } = clusters
  const touched: number[][] = Array.from({ length: variants }, () => [])
  for (let p = 0; p < judged.length; p += 2) {
    const i = judged[p]!
    const c = of[i]! - base
    const o = c * 4
    if (scratch[o]! + scratch[o + 1]! + scratch[o + 2]! + scratch[o + 3]! === 0) touched[variant[i]!]!.push(c)
    scratch[o + judged[p + 1]!]!++
  }
  return clustersInCells(scratch, touched, boot)
}
