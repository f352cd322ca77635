// Oracle: the item-level code as it was before the columnar rewrite (kept only for the
// equality tests in itemLevelOracle.test.ts and pairCorrelations.test.ts). Nothing in src imports it.
import { mulberry32 } from '../../../src/main/metrics/stats/bootstrap'
import {
  type PreparedPairs,
  preparePairs,
  weightedKendallTauB,
  weightedPearson,
  weightedSpearman,
} from './weightedCorrelation'

/**
 * Item-level correlation of a judge's item scores with the human item scores, each coefficient
 * with a percentile bootstrap interval over items (pairs resampled with replacement, seeded).
 * A resample is a count per pair (stats/weightedCorrelation.ts), so pairs are sorted once.
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

const STATS = {
  pearson: weightedPearson,
  spearman: weightedSpearman,
  kendallTauB: weightedKendallTauB,
} as const satisfies Record<string, (p: PreparedPairs, w: ArrayLike<number>) => number | null>
type Stat = keyof typeof STATS
const NAMES = Object.keys(STATS) as Stat[]

function percentile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo)
}

/**
 * Pairs are put in a canonical order first, so the same pairs in any order draw the same
 * resamples and give the same intervals.
 */
export function itemCorrelation(
  judge: readonly number[],
  human: readonly number[],
  boot: ItemBootstrap,
): ItemCorrelation {
  if (judge.length !== human.length) throw new Error('itemCorrelation: lists differ in length')
  const order = judge.map((_, i) => i).sort((a, b) => judge[a]! - judge[b]! || human[a]! - human[b]!)
  const p = preparePairs(
    order.map((i) => judge[i]!),
    order.map((i) => human[i]!),
  )
  const n = p.n
  const ones = new Int32Array(n).fill(1)
  const point = {
    pearson: STATS.pearson(p, ones),
    spearman: STATS.spearman(p, ones),
    kendallTauB: STATS.kendallTauB(p, ones),
  }
  const wanted = NAMES.filter((k) => point[k] !== null)
  const draws = Object.fromEntries(NAMES.map((k) => [k, [] as number[]])) as Record<Stat, number[]>
  if (n >= 3 && wanted.length > 0) {
    const rand = mulberry32(boot.seed)
    const w = new Int32Array(n)
    for (let r = 0; r < boot.replicates; r++) {
      w.fill(0)
      for (let k = 0; k < n; k++) w[Math.floor(rand() * n)]!++
      for (const name of wanted) {
        const v = STATS[name](p, w)
        if (v !== null) draws[name].push(v)
      }
    }
  }
  const level = boot.level ?? 0.95
  const ci = (name: Stat): Interval => {
    // A coefficient undefined in most resamples (almost no variation) gets no interval.
    if (point[name] === null || draws[name].length < boot.replicates / 2 || draws[name].length === 0)
      return null
    const d = Float64Array.from(draws[name]).sort()
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
