import { kendallTauB, pearson, spearman } from './correlation'

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

export function documentCoefficients(rows: readonly ScoredResponse[]): DocumentCoefficients {
  const out: DocumentCoefficients = {
    pearson: [] as number[],
    spearman: [] as number[],
    kendallTauB: [] as number[],
    leftOut: 0,
  }
  // Documents in the order of their ids, so the same rows in any order draw the same resamples.
  const byDoc = [...groups(rows, (r) => r.item)].sort((a, b) => a[0] - b[0])
  for (const [, list] of byDoc) {
    const x = list.map((r) => r.judge)
    const y = list.map((r) => r.human)
    // All three are defined exactly when both sides vary over two or more responses.
    const p = pearson(x, y)
    const s = spearman(x, y)
    const k = kendallTauB(x, y)
    if (p === null || s === null || k === null) {
      out.leftOut++
      continue
    }
    out.pearson.push(p)
    out.spearman.push(s)
    out.kendallTauB.push(k)
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
