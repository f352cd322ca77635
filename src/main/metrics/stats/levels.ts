import { kendallTauB, pearson, spearman } from './correlation'
import { type Coefficients, SHORT, shortCoefficients } from './smallCorrelations'

/**
 * The DCR paper's correlation levels over (judge, human) response scores, beside the pooled one.
 * Pure.
 * - summary level (Zhong et al. 2022, UniEval's reproduce/correlation.py, as DCR's Table 3 uses
 *   it): per source document, correlate across that document's responses (its systems'
 *   summaries), then average over documents. A document with fewer than two responses, or where
 *   one side does not vary, has no coefficient: it is left out and counted.
 * - system level: per system (variant), the mean judge score and the mean human score, then one
 *   correlation across systems.
 */

export interface ScoredResponse {
  item: number
  variant: string
  judge: number
  human: number
}

export interface SummaryLevel {
  /** Documents whose coefficients were averaged. */
  items: number
  /** Documents left out: fewer than two responses, or one side constant. */
  leftOut: number
  pearson: number | null
  spearman: number | null
  kendallTauB: number | null
}

export function groups<K>(
  rows: readonly ScoredResponse[],
  key: (r: ScoredResponse) => K,
): Map<K, ScoredResponse[]> {
  const out = new Map<K, ScoredResponse[]>()
  for (const r of rows) {
    const list = out.get(key(r))
    if (list) list.push(r)
    else out.set(key(r), [r])
  }
  return out
}

/** Each document's three coefficients, for the documents that have them; `leftOut` counts the rest. */
export interface DocumentCoefficients {
  pearson: number[]
  spearman: number[]
  kendallTauB: number[]
  leftOut: number
}

/**
 * Each row's document numbered 0…count−1 in the order of the documents' ids, and the rows in
 * that order (a document's rows keeping theirs): no Map over the rows.
 */
export function documentNumbers(rows: readonly ScoredResponse[]): {
  of: Int32Array
  count: number
  order: Int32Array
} {
  const n = rows.length
  const order = new Int32Array(n)
  let sorted = true
  for (let i = 0; i < n; i++) {
    order[i] = i
    if (i > 0 && rows[i]!.item < rows[i - 1]!.item) sorted = false
  }
  if (!sorted) order.sort((a, b) => rows[a]!.item - rows[b]!.item || a - b)
  const of = new Int32Array(n)
  let count = 0
  for (let i = 0; i < n; i++) {
    if (i > 0 && rows[order[i]!]!.item !== rows[order[i - 1]!]!.item) count++
    of[order[i]!] = count
  }
  return { of, count: n === 0 ? 0 : count + 1, order }
}

export function documentCoefficients(rows: readonly ScoredResponse[]): DocumentCoefficients {
  const out: DocumentCoefficients = {
    pearson: [] as number[],
    spearman: [] as number[],
    kendallTauB: [] as number[],
    leftOut: 0,
  }
  const n = rows.length
  // Documents in the order of their ids, so the same rows in any order draw the same resamples;
  // within a document its rows keep their order (the sums below are taken in it).
  const { order } = documentNumbers(rows)
  const x = new Float64Array(n)
  const y = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const r = rows[order[i]!]!
    x[i] = r.judge
    y[i] = r.human
  }
  const rx = new Float64Array(n)
  const ry = new Float64Array(n)
  const c: Coefficients = { pearson: null, spearman: null, kendallTauB: null }
  let lo = 0
  while (lo < n) {
    const item = rows[order[lo]!]!.item
    let hi = lo + 1
    while (hi < n && rows[order[hi]!]!.item === item) hi++
    if (hi - lo <= SHORT) shortCoefficients(x, y, lo, hi, rx, ry, c)
    else {
      const xs = Array.from(x.subarray(lo, hi))
      const ys = Array.from(y.subarray(lo, hi))
      c.pearson = pearson(xs, ys)
      c.spearman = spearman(xs, ys)
      c.kendallTauB = kendallTauB(xs, ys)
    }
    lo = hi
    // All three are defined exactly when both sides vary over two or more responses.
    if (c.pearson === null || c.spearman === null || c.kendallTauB === null) {
      out.leftOut++
      continue
    }
    out.pearson.push(c.pearson)
    out.spearman.push(c.spearman)
    out.kendallTauB.push(c.kendallTauB)
  }
  return out
}

export function summaryLevel(rows: readonly ScoredResponse[]): SummaryLevel {
  return averaged(documentCoefficients(rows))
}

/** The summary level of coefficients already worked out (their interval draws on the same ones). */
export function averaged(d: DocumentCoefficients): SummaryLevel {
  const items = d.pearson.length
  const mean = (v: number[]) => (items === 0 ? null : v.reduce((a, b) => a + b, 0) / items)
  return {
    items,
    leftOut: d.leftOut,
    pearson: mean(d.pearson),
    spearman: mean(d.spearman),
    kendallTauB: mean(d.kendallTauB),
  }
}

/** Each system's mean judge and mean human score, in the order systems first appear. */
export function systemMeans(
  rows: readonly ScoredResponse[],
): { variant: string; judge: number; human: number }[] {
  return [...groups(rows, (r) => r.variant)].map(([variant, list]) => ({
    variant,
    judge: list.reduce((a, r) => a + r.judge, 0) / list.length,
    human: list.reduce((a, r) => a + r.human, 0) / list.length,
  }))
}
