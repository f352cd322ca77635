import type { Cells } from './binary'
import { type BootstrapOptions, binomial, type Interval, interval, mulberry32 } from './bootstrap'

/**
 * The ER and F1 bootstrap over clusters of targets rather than targets (paper audit, finding 7).
 * FaaF judges all facts of a candidate in one call against one passage, DCR all its sentences,
 * RefChecker's extractor made all its triplets: a call that goes wrong tends to take several
 * targets with it, so targets are not independent draws, and resampling them one by one gives an
 * interval narrower than the data allow. Resampling whole candidates keeps each call's targets
 * together.
 *
 * Both figures depend only on a replicate's summed cells, and candidates with the same four cell
 * counts are interchangeable, so a replicate is a multinomial draw of the m candidates over their
 * distinct patterns: the distribution of resampling m candidates with replacement, at a cost set
 * by the number of patterns (a few dozen for six facts a candidate) rather than m.
 */

/** Candidates sharing one (tp, fp, fn, tn): `count` of them. */
export interface ClusterPattern {
  tp: number
  fp: number
  fn: number
  tn: number
  count: number
}

export const clusterCount = (patterns: readonly ClusterPattern[]): number =>
  patterns.reduce((m, p) => m + p.count, 0)

/** Percentile intervals of ER and F1 (unsupported) from one seeded bootstrap over candidates. */
export function clusterIntervals(
  patterns: readonly ClusterPattern[],
  opts: BootstrapOptions = {},
): { errorRate: Interval | null; f1: Interval | null } {
  const m = clusterCount(patterns)
  if (m === 0) return { errorRate: null, f1: null }
  const level = opts.level ?? 0.95
  const rand = mulberry32(opts.seed ?? 1)
  const reps = opts.replicates ?? 1000
  const er = new Float64Array(reps)
  const f1 = new Float64Array(reps)
  let nEr = 0
  let nF1 = 0
  const sum: Cells = { tp: 0, fp: 0, fn: 0, tn: 0 }
  for (let r = 0; r < reps; r++) {
    sum.tp = 0
    sum.fp = 0
    sum.fn = 0
    sum.tn = 0
    // Multinomial(m, counts / m) as successive binomials over what is left.
    let left = m
    let mass = m
    for (let k = 0; k < patterns.length && left > 0; k++) {
      const p = patterns[k]!
      const drawn = k === patterns.length - 1 ? left : binomial(left, Math.min(1, p.count / mass), rand)
      left -= drawn
      mass -= p.count
      sum.tp += drawn * p.tp
      sum.fp += drawn * p.fp
      sum.fn += drawn * p.fn
      sum.tn += drawn * p.tn
    }
    const n = sum.tp + sum.fp + sum.fn + sum.tn
    if (n > 0) er[nEr++] = (sum.fp + sum.fn) / n
    const dice = 2 * sum.tp + sum.fp + sum.fn
    if (dice > 0) f1[nF1++] = (2 * sum.tp) / dice
  }
  return { errorRate: interval(er, nEr, level), f1: interval(f1, nF1, level) }
}

/**
 * Groups candidates' cells into patterns. `cells` holds four counts (tp, fp, fn, tn) per
 * candidate; candidates with no judged pair are left out.
 */
export function patternsOf(
  cells: Int32Array | Uint16Array | Uint8Array,
  candidates: Iterable<number>,
): ClusterPattern[] {
  const byKey = new Map<number | string, ClusterPattern>()
  for (const c of candidates) {
    const o = c * 4
    const tp = cells[o]!
    const fp = cells[o + 1]!
    const fn = cells[o + 2]!
    const tn = cells[o + 3]!
    if (tp + fp + fn + tn === 0) continue
    // A small integer where the counts fit in 7 bits each, as they do for a candidate's facts
    // (V8 hashes it directly; a larger number is a heap double and costs several times more per
    // candidate, a string far more), else a number over 11 bits each, else a string.
    const key =
      tp < 128 && fp < 128 && fn < 128 && tn < 128
        ? ((tp * 128 + fp) * 128 + fn) * 128 + tn
        : tp < 2048 && fp < 2048 && fn < 2048 && tn < 2048
          ? -(((tp * 2048 + fp) * 2048 + fn) * 2048 + tn) - 1
          : `${tp},${fp},${fn},${tn}`
    const p = byKey.get(key)
    if (p) p.count++
    else byKey.set(key, { tp, fp, fn, tn, count: 1 })
  }
  return [...byKey.values()]
}
