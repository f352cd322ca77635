import { cellOf, FIRST_CELL } from './figures'
import { type SpanColumns, ST_OK } from './runStatus'
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
 * Per variant, the clusters of the `touched` candidates whose four cells (tp, fp, fn, tn) sit in
 * `cells`, and over all variants: one pass adds up the sums the closed-form interval needs, and
 * the candidates are grouped into patterns only where the bootstrap will be drawn (few
 * candidates, or a closed form reaching past 0 or 1). Overall needs every variant's patterns.
 */
function clustersOf(
  cells: Int32Array,
  touched: readonly number[][],
  boot: BootstrapOptions,
): VariantClusters {
  const level = boot.level
  const sums = touched.map((cs) => {
    const s = noClusterSums()
    for (const c of cs) {
      const o = c * 4
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
  return { byVariant, overall: { count: all.errorRate.m, sums: all, patterns } }
}

/**
 * Per variant (in `variants` order), the clusters of the candidates the run judged against
 * gold. A candidate belongs to one variant, so a variant's clusters are whole.
 */
export function clustersOfRun(
  run: Pick<SpanColumns, 'from' | 'to' | 'status' | 'bin'>,
  t: { goldBin: Int8Array; variant: Uint16Array },
  clusters: { of: Int32Array; count: number },
  variants: number,
  boot: BootstrapOptions,
): VariantClusters {
  const { from, to, status, bin } = run
  const cells = new Int32Array(clusters.count * 4)
  const touched: number[][] = Array.from({ length: variants }, () => [])
  for (let i = from; i < to; i++) {
    const k = i - from
    const j = bin[k]!
    const g = t.goldBin[i]!
    if (status[k] !== ST_OK || j < 0 || g < 0) continue
    const c = clusters.of[i]!
    const o = c * 4
    if (cells[o]! + cells[o + 1]! + cells[o + 2]! + cells[o + 3]! === 0) touched[t.variant[i]!]!.push(c)
    cells[o + cellOf(j, g) - FIRST_CELL]!++
  }
  return clustersOf(cells, touched, boot)
}

/**
 * Per variant, the clusters of one person's labels as a judge (humans.ts): `judged` holds a
 * target index and its cell (0…3, tp fp fn tn) per label counted against gold. `scratch` is
 * clusters.count × 4 zeros, and is left zeroed, so one serves every person.
 */
export function clustersOfLabels(
  judged: ArrayLike<number>,
  variant: Uint16Array,
  clusters: { of: Int32Array; count: number },
  variants: number,
  scratch: Int32Array,
  boot: BootstrapOptions,
): VariantClusters {
  const touched: number[][] = Array.from({ length: variants }, () => [])
  for (let p = 0; p < judged.length; p += 2) {
    const i = judged[p]!
    const c = clusters.of[i]!
    const o = c * 4
    if (scratch[o]! + scratch[o + 1]! + scratch[o + 2]! + scratch[o + 3]! === 0) touched[variant[i]!]!.push(c)
    scratch[o + judged[p + 1]!]!++
  }
  const out = clustersOf(scratch, touched, boot)
  // Four stores, not a fill() call per candidate: a builtin call each cost more than the writes.
  for (const cs of touched)
    for (const c of cs) {
      const o = c * 4
      scratch[o] = 0
      scratch[o + 1] = 0
      scratch[o + 2] = 0
      scratch[o + 3] = 0
    }
  return out
}
