import type { ItemCorrelationRow, ItemLevel } from './contract/itemLevel'
import { fmtNum, NOT_DEFINED } from './contract/metrics'

/**
 * The item-level correlation table as strings, shared by the reports and the Compare view so
 * both print the same figures.
 */

export const ITEM_LEVEL_HEAD = [
  'Judge / annotator',
  'Units',
  'Item score',
  'Variant',
  'Items',
  'Pearson',
  'Spearman',
  'Kendall τ-b',
]

export const ITEM_LEVEL_NOTE =
  'One score per response (a candidate of an item) from the verdicts on its units, correlated with the human item score from gold of the same units (annotators: the gold the others make). Intervals: seeded bootstrap 95% over items. "not defined": one side gives every item the same score (in a variant of good answers, often all supported), so nothing varies to correlate.'

export function fmtCoefCi(x: number | null, iv: readonly [number, number] | null): string {
  if (x === null) return NOT_DEFINED
  return iv === null ? fmtNum(x) : `${fmtNum(x)} [${fmtNum(iv[0])}, ${fmtNum(iv[1])}]`
}

function cells(c: ItemCorrelationRow): string[] {
  return [
    String(c.n),
    fmtCoefCi(c.pearson, c.pearsonCi),
    fmtCoefCi(c.spearman, c.spearmanCi),
    fmtCoefCi(c.kendallTauB, c.kendallTauBCi),
  ]
}

/** One row overall per judge (or annotator), unit kind and score, then one per variant when there are several. */
export function itemLevelRows(l: ItemLevel): string[][] {
  return l.correlations.flatMap((c) => {
    const head = [c.label, c.unitKind, c.score]
    const variants = Object.entries(c.byVariant)
    return [
      [...head, 'all', ...cells(c.overall)],
      ...(variants.length > 1 ? variants.map(([v, x]) => [...head, v, ...cells(x)]) : []),
    ]
  })
}
