import { sampleCorrelation, sampleRankCorrelation } from 'simple-statistics'
import type { LabelSchema } from '../../../shared/labelSchemas'
import { MIN_CORRELATION_PAIRS } from '../../../shared/smallSample'

/**
 * Numeric judge scores (DCR score, holistic 0/1/2, ROUGE) against human scores or binary
 * labels. Each function returns null where the figure is not defined (fewer than two pairs, or
 * no variation on one side) instead of NaN.
 */

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null
}

function hasVariation(xs: readonly number[]): boolean {
  for (const x of xs) if (x !== xs[0]) return true
  return false
}

export function pearson(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 2 || !hasVariation(x) || !hasVariation(y)) return null
  return finiteOrNull(sampleCorrelation([...x], [...y]))
}

export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 2 || !hasVariation(x) || !hasVariation(y)) return null
  return finiteOrNull(sampleRankCorrelation([...x], [...y]))
}

/** Number of tied pairs within runs of equal values of an already sorted key. */
function tiedPairs(n: number, same: (i: number) => boolean): number {
  let total = 0
  let run = 1
  for (let i = 1; i < n; i++) {
    if (same(i)) run++
    else {
      total += (run * (run - 1)) / 2
      run = 1
    }
  }
  return total + (run * (run - 1)) / 2
}

/**
 * Kendall's τ-b in O(n log n) (Knight's algorithm): sort by x then y, count ties, then count
 * the swaps a merge sort on y needs, which are the discordant pairs.
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length
  if (n !== y.length) throw new Error(`kendallTauB: lists differ in length (${n} vs ${y.length})`)
  if (n < 2) return null
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]!)
  const xs = order.map((i) => x[i]!)
  let ys = order.map((i) => y[i]!)
  const n0 = (n * (n - 1)) / 2
  const tiesX = tiedPairs(n, (i) => xs[i] === xs[i - 1])
  const tiesXY = tiedPairs(n, (i) => xs[i] === xs[i - 1] && ys[i] === ys[i - 1])
  let swaps = 0
  let buf = new Array<number>(n)
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n)
      const hi = Math.min(lo + 2 * width, n)
      let i = lo
      let j = mid
      let k = lo
      while (i < mid && j < hi) {
        if (ys[j]! < ys[i]!) {
          swaps += mid - i
          buf[k++] = ys[j++]!
        } else buf[k++] = ys[i++]!
      }
      while (i < mid) buf[k++] = ys[i++]!
      while (j < hi) buf[k++] = ys[j++]!
    }
    ;[ys, buf] = [buf, ys]
  }
  const tiesY = tiedPairs(n, (i) => ys[i] === ys[i - 1])
  // Pairs tied in neither x nor y are concordant or discordant; the swaps are the discordant ones.
  const untied = n0 - tiesX - tiesY + tiesXY
  const concordantMinusDiscordant = untied - 2 * swaps
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY))
  return denom === 0 ? null : concordantMinusDiscordant / denom
}

/**
 * AUROC of a score for telling positives from negatives: the Mann–Whitney probability that a
 * random positive scores above a random negative, ties counting one half.
 */
export function auroc(scores: readonly number[], positive: readonly boolean[]): number | null {
  const n = scores.length
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!)
  let rankSumPos = 0
  let nPos = 0
  let i = 0
  while (i < n) {
    let j = i
    while (j + 1 < n && scores[order[j + 1]!] === scores[order[i]!]) j++
    const midrank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++)
      if (positive[order[k]!]) {
        rankSumPos += midrank
        nPos++
      }
    i = j + 1
  }
  const nNeg = n - nPos
  if (nPos === 0 || nNeg === 0) return null
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg)
}

/**
 * Where numeric human scores are split into positives and negatives for AUROC: scores at or
 * above `threshold` count as positive (supported).
 */
export interface AurocCut {
  threshold: number
  /** `schema`: the label schema's own pass line; `midpoint`: the middle of its score range. */
  source: 'schema' | 'midpoint'
}

/**
 * The cut for a label schema whose labels are numbers (numeric schemas, or categorical ones with a
 * score per verdict); null for schemas whose labels are plain categories. The schema's own pass
 * line is preferred so that AUROC's positives are the very targets the error rate counts as
 * supported; the midpoint of the range is the fallback where the schema has no usable line.
 */
export function aurocCut(schema: LabelSchema): AurocCut | null {
  if (schema.type === 'numeric') {
    // A threshold outside (min, max] would put every possible label in one class.
    if (schema.threshold > schema.min && schema.threshold <= schema.max)
      return { threshold: schema.threshold, source: 'schema' }
    return { threshold: (schema.min + schema.max) / 2, source: 'midpoint' }
  }
  if (!schema.scores) return null
  const scored = Object.entries(schema.scores)
  if (scored.length === 0) return null
  const passing = scored.filter(([v]) => schema.binary[v] === 'supported').map(([, s]) => s)
  const failing = scored.filter(([v]) => schema.binary[v] !== 'supported').map(([, s]) => s)
  // The binary mapping is a pass line only when every supported verdict outscores every other.
  if (passing.length > 0 && failing.length > 0 && Math.min(...passing) > Math.max(...failing))
    return { threshold: Math.min(...passing), source: 'schema' }
  const all = scored.map(([, s]) => s)
  return { threshold: (Math.min(...all) + Math.max(...all)) / 2, source: 'midpoint' }
}

export interface Correlations {
  n: number
  pearson: number | null
  spearman: number | null
  kendallTauB: number | null
  /** Null where not defined: no cut for non-binary human scores, or only one class present. */
  auroc: number | null
  /** The cut that made numeric human scores binary for AUROC; null when they were 0/1 already. */
  aurocCut: AurocCut | null
}

/**
 * Judge scores against human scores. With a `cut`, AUROC treats human scores at or above its
 * threshold as positive; without one it is computed only when the human side is already 0/1.
 */
export function correlate(
  judge: readonly number[],
  human: readonly number[],
  cut: AurocCut | null = null,
): Correlations {
  const positive = cut
    ? human.map((h) => h >= cut.threshold)
    : human.every((h) => h === 0 || h === 1)
      ? human.map((h) => h === 1)
      : null
  return {
    n: judge.length,
    pearson: pearson(judge, human),
    spearman: spearman(judge, human),
    kendallTauB: kendallTauB(judge, human),
    auroc: positive ? auroc(judge, positive) : null,
    aurocCut: cut,
  }
}

/**
 * The figures as the views and reports give them: under MIN_CORRELATION_PAIRS pairs none at all.
 * Over two targets every coefficient is ±1 and AUROC 0, ½ or 1 whatever the judge did, which a
 * reader cannot tell from a real 1.000. `correlate` itself stays exact for any n (tests check it
 * against hand values on three pairs).
 */
export function readableCorrelations(c: Correlations): Correlations {
  if (c.n >= MIN_CORRELATION_PAIRS) return c
  return { ...c, pearson: null, spearman: null, kendallTauB: null, auroc: null }
}
