import { kendallTauB, pearson, spearman } from './correlation'
import { documentNumbers, type ScoredColumns, type ScoredResponse, scoredColumns } from './scoredColumns'
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
 * Each takes rows or their columns (scoredColumns.ts); the item-level build hands columns.
 */

export type { ScoredResponse }

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

export function documentCoefficients(rows: readonly ScoredResponse[]): DocumentCoefficients {
  return documentCoefficientsOf(scoredColumns(rows))
}

export function documentCoefficientsOf(c: ScoredColumns): DocumentCoefficients {
  const out: DocumentCoefficients = {
    pearson: [] as number[],
    spearman: [] as number[],
    kendallTauB: [] as number[],
    leftOut: 0,
  }
  const n = c.n
  // Documents in the order of their ids, so the same rows in any order draw the same resamples;
  // within a document its rows keep their order (the sums below are taken in it).
  const { order, inOrder } = documentNumbers(c)
  // Copied in document order only where the responses are not in it already.
  let x = c.judge
  let y = c.human
  if (!inOrder) {
    x = new Float64Array(n)
    y = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      x[i] = c.judge[order[i]!]!
      y[i] = c.human[order[i]!]!
    }
  }
  const rx = new Float64Array(SHORT)
  const ry = new Float64Array(SHORT)
  const got: Coefficients = { pearson: null, spearman: null, kendallTauB: null }
  let lo = 0
  while (lo < n) {
    const item = c.doc[order[lo]!]!
    let hi = lo + 1
    while (hi < n && c.doc[order[hi]!]! === item) hi++
    if (hi - lo <= SHORT) shortCoefficients(x, y, lo, hi, rx, ry, got)
    else {
      const xs = Array.from(x.subarray(lo, hi))
      const ys = Array.from(y.subarray(lo, hi))
      got.pearson = pearson(xs, ys)
      got.spearman = spearman(xs, ys)
      got.kendallTauB = kendallTauB(xs, ys)
    }
    lo = hi
    // All three are defined exactly when both sides vary over two or more responses.
    if (got.pearson === null || got.spearman === null || got.kendallTauB === null) {
      out.leftOut++
      continue
    }
    out.pearson.push(got.pearson)
    out.spearman.push(got.spearman)
    out.kendallTauB.push(got.kendallTauB)
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
  return systemMeansOf(scoredColumns(rows))
}

export function systemMeansOf(c: ScoredColumns): { variant: string; judge: number; human: number }[] {
  const S = c.systemNames.length
  const judge = new Float64Array(S)
  const human = new Float64Array(S)
  const count = new Int32Array(S)
  const seen: number[] = []
  // Each system's sums in the order of its rows, from 0, as a reduce over its list adds them.
  for (let i = 0; i < c.n; i++) {
    const s = c.sys[i]!
    if (count[s] === 0) seen.push(s)
    judge[s]! += c.judge[i]!
    human[s]! += c.human[i]!
    count[s]!++
  }
  return seen.map((s) => ({
    variant: c.systemNames[s]!,
    judge: judge[s]! / count[s]!,
    human: human[s]! / count[s]!,
  }))
}
