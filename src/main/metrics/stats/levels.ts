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

function groups<K>(rows: readonly ScoredResponse[], key: (r: ScoredResponse) => K): Map<K, ScoredResponse[]> {
  const out = new Map<K, ScoredResponse[]>()
  for (const r of rows) {
    const list = out.get(key(r))
    if (list) list.push(r)
    else out.set(key(r), [r])
  }
  return out
}

export function summaryLevel(rows: readonly ScoredResponse[]): SummaryLevel {
  const sums = { pearson: 0, spearman: 0, kendallTauB: 0 }
  let items = 0
  let leftOut = 0
  for (const list of groups(rows, (r) => r.item).values()) {
    const x = list.map((r) => r.judge)
    const y = list.map((r) => r.human)
    // All three are defined exactly when both sides vary over two or more responses.
    const p = pearson(x, y)
    const s = spearman(x, y)
    const k = kendallTauB(x, y)
    if (p === null || s === null || k === null) {
      leftOut++
      continue
    }
    items++
    sums.pearson += p
    sums.spearman += s
    sums.kendallTauB += k
  }
  const mean = (v: number) => (items === 0 ? null : v / items)
  return {
    items,
    leftOut,
    pearson: mean(sums.pearson),
    spearman: mean(sums.spearman),
    kendallTauB: mean(sums.kendallTauB),
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
