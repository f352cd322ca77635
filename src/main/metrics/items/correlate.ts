import { mulberry32 } from '../bootstrap'
import { kendallTauB, pearson, spearman } from '../correlation'

/**
 * Item-level correlation of a judge's item scores with the human item scores, each coefficient
 * with a percentile bootstrap interval over items (pairs resampled with replacement, seeded).
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

// Rounding can carry a perfect correlation a hair past ±1; a coefficient never is.
const clamp =
  (f: (x: readonly number[], y: readonly number[]) => number | null) =>
  (x: readonly number[], y: readonly number[]) => {
    const v = f(x, y)
    return v === null ? null : Math.max(-1, Math.min(1, v))
  }
const STATS = { pearson: clamp(pearson), spearman: clamp(spearman), kendallTauB: clamp(kendallTauB) } as const

function percentile(sorted: readonly number[], q: number): number {
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
  const x = order.map((i) => judge[i]!)
  const y = order.map((i) => human[i]!)
  const n = x.length
  const point = {
    pearson: STATS.pearson(x, y),
    spearman: STATS.spearman(x, y),
    kendallTauB: STATS.kendallTauB(x, y),
  }
  const draws: Record<keyof typeof STATS, number[]> = { pearson: [], spearman: [], kendallTauB: [] }
  const anyDefined = point.pearson !== null || point.spearman !== null || point.kendallTauB !== null
  if (n >= 3 && anyDefined) {
    const rand = mulberry32(boot.seed)
    const bx = new Array<number>(n)
    const by = new Array<number>(n)
    for (let r = 0; r < boot.replicates; r++) {
      for (let k = 0; k < n; k++) {
        const j = Math.floor(rand() * n)
        bx[k] = x[j]!
        by[k] = y[j]!
      }
      for (const name of Object.keys(STATS) as (keyof typeof STATS)[]) {
        if (point[name] === null) continue
        const v = STATS[name](bx, by)
        if (v !== null) draws[name].push(v)
      }
    }
  }
  const level = boot.level ?? 0.95
  const ci = (name: keyof typeof STATS): Interval => {
    const d = draws[name]
    // A coefficient undefined in most resamples (almost no variation) gets no interval.
    if (point[name] === null || d.length < boot.replicates / 2) return null
    d.sort((a, b) => a - b)
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
