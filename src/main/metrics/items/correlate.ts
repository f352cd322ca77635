import {
  type Coefficients,
  canonicalPairColumns,
  type SparseWeights,
  sparseCoefficients,
  sparseWeights,
} from '../stats/pairCorrelations'

/**
 * Item-level correlation of a judge's item scores with the human item scores, each coefficient
 * with a percentile bootstrap interval over items (pairs resampled with replacement, seeded).
 * A resample is a count per pair (stats/pairCorrelations.ts), so pairs are prepared once and
 * one pass per resample gives all three coefficients.
 * Pure; the order of the pairs does not matter (the test checks it).
 */

export type Interval = [number, number] | null

export interface ItemCorrelation {
  n: number
  pearson: number | null
  pearsonCi: Interval
  spearman: number | null
  spearmanCi: Interval
  kendallTauB: number | null
  kendallTauBCi: Interval
}

export interface ItemBootstrap {
  seed: number
  replicates: number
  level?: number
}

const NAMES = ['pearson', 'spearman', 'kendallTauB'] as const
type Stat = (typeof NAMES)[number]

function percentile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo)
}

/**
 * Successive resamples of n pairs from a seed: how often each pair was drawn. mulberry32
 * (stats/bootstrap.ts) is written out in the loop, the same stream without a call per draw; the
 * tests hold it to the shared generator.
 */
function drawer(seed: number, n: number): (w: Int32Array) => Int32Array {
  let a = seed >>> 0
  return (w) => {
    w.fill(0)
    for (let k = 0; k < n; k++) {
      a = (a + 0x6d2b79f5) >>> 0
      let t = a
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      w[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)]!++
    }
    return w
  }
}

/**
 * Above this many counts (replicates × pairs) resamples are drawn afresh instead of kept: 16 MB
 * at most while drawing. The 1M-verdict bench keeps 0.8 M.
 */
const KEPT_COUNTS_MAX = 2_000_000

/**
 * The resamples of one seed, kept per number of pairs. Every correlation line starts from the
 * same seed, so lines with as many pairs (every judge over the same responses) draw the very same
 * resamples: drawing them once saves most of the bootstrap's time.
 */
export class Resamples {
  private readonly kept = new Map<number, { idx: Int32Array; cnt: Int32Array; start: Int32Array }>()
  private readonly ones = new Map<number, SparseWeights>()
  constructor(
    private readonly boot: ItemBootstrap,
    private readonly keepAtMost = KEPT_COUNTS_MAX,
  ) {}

  /**
   * Every pair once (the point estimate's weighting), kept per n: the lines over as many pairs
   * share it instead of making two columns each.
   */
  everyPair(n: number): SparseWeights {
    let got = this.ones.get(n)
    if (!got) {
      const idx = new Int32Array(n)
      for (let i = 0; i < n; i++) idx[i] = i
      got = { idx, cnt: new Int32Array(n).fill(1), from: 0, to: n }
      this.ones.set(n, got)
    }
    return got
  }

  fits(boot: ItemBootstrap): boolean {
    return boot.seed === this.boot.seed && boot.replicates === this.boot.replicates
  }

  /** The drawn pairs of replicate r at [start[r], start[r + 1]), or null when too many to keep. */
  weights(n: number): { idx: Int32Array; cnt: Int32Array; start: Int32Array } | null {
    const { replicates, seed } = this.boot
    if (replicates * n > this.keepAtMost) return null
    let got = this.kept.get(n)
    if (!got) {
      const idx = new Int32Array(replicates * n)
      const cnt = new Int32Array(replicates * n)
      const start = new Int32Array(replicates + 1)
      const w = new Int32Array(n)
      const draw = drawer(seed, n)
      let m = 0
      for (let r = 0; r < replicates; r++) {
        draw(w)
        start[r] = m
        for (let i = 0; i < n; i++)
          if (w[i] !== 0) {
            idx[m] = i
            cnt[m++] = w[i]!
          }
      }
      start[replicates] = m
      // Views, not copies: a copy would touch as much fresh memory again (a page fault per 4 KB,
      // dear on a first call), and the tail past m is never written, so never touched.
      got = { idx: idx.subarray(0, m), cnt: cnt.subarray(0, m), start }
      this.kept.set(n, got)
    }
    return got
  }
}

/**
 * Pairs are put in a canonical order first, so the same pairs in any order draw the same
 * resamples and give the same intervals.
 */
export function itemCorrelation(
  judge: ArrayLike<number>,
  human: ArrayLike<number>,
  boot: ItemBootstrap,
  resamples?: Resamples,
): ItemCorrelation {
  if (judge.length !== human.length) throw new Error('itemCorrelation: lists differ in length')
  const p = canonicalPairColumns(judge, human)
  const n = p.n
  const got: Coefficients = { pearson: Number.NaN, spearman: Number.NaN, kendallTauB: Number.NaN }
  sparseCoefficients(p, (resamples?.fits(boot) ? resamples : new Resamples(boot)).everyPair(n), got)
  const point = {
    pearson: Number.isNaN(got.pearson) ? null : got.pearson,
    spearman: Number.isNaN(got.spearman) ? null : got.spearman,
    kendallTauB: Number.isNaN(got.kendallTauB) ? null : got.kendallTauB,
  }
  const wanted = NAMES.filter((k) => point[k] !== null)
  const draws = {
    pearson: new Float64Array(boot.replicates),
    spearman: new Float64Array(boot.replicates),
    kendallTauB: new Float64Array(boot.replicates),
  }
  const drawn = { pearson: 0, spearman: 0, kendallTauB: 0 }
  if (n >= 3 && wanted.length > 0) {
    const kept = (resamples?.fits(boot) ? resamples : new Resamples(boot)).weights(n)
    const w = kept ? null : new Int32Array(n)
    const gen = kept ? null : drawer(boot.seed, n)
    // One weighting moved along the kept draws: nothing is made per resample.
    const along: SparseWeights | null = kept ? { idx: kept.idx, cnt: kept.cnt, from: 0, to: 0 } : null
    for (let r = 0; r < boot.replicates; r++) {
      if (along && kept) {
        along.from = kept.start[r]!
        along.to = kept.start[r + 1]!
      }
      sparseCoefficients(p, along ?? sparseWeights(gen!(w!)), got)
      for (const name of wanted) if (!Number.isNaN(got[name])) draws[name][drawn[name]++] = got[name]
    }
  }
  const level = boot.level ?? 0.95
  const ci = (name: Stat): Interval => {
    // A coefficient undefined in most resamples (almost no variation) gets no interval.
    if (point[name] === null || drawn[name] < boot.replicates / 2 || drawn[name] === 0) return null
    const d = draws[name].slice(0, drawn[name]).sort()
    return [percentile(d, (1 - level) / 2), percentile(d, 1 - (1 - level) / 2)]
  }
  return {
    n,
    pearson: point.pearson,
    pearsonCi: ci('pearson'),
    spearman: point.spearman,
    spearmanCi: ci('spearman'),
    kendallTauB: point.kendallTauB,
    kendallTauBCi: ci('kendallTauB'),
  }
}
