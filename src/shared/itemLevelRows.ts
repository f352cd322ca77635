import type { ItemCorrelationRow, ItemLevel } from './contract/itemLevel'
import { fmtNum, NOT_DEFINED } from './contract/metrics'
import {
  BOOTSTRAP_MIN_N,
  correlationNote,
  MIN_CORRELATION_PAIRS,
  READ_CORRELATION_PAIRS,
  WITHHELD,
  withNote,
} from './smallSample'

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

export const ITEM_LEVEL_NOTE = `One score per response (a candidate of an item) from the verdicts on its units, correlated with the human item score from gold of the same units (annotators: the gold the others make). Intervals: 95%, a seeded bootstrap over items; over fewer than ${BOOTSTRAP_MIN_N} items, Fisher's z. Over fewer than ${READ_CORRELATION_PAIRS} items a correlation is marked too few to read; under ${MIN_CORRELATION_PAIRS} none is given (${WITHHELD}): over two items every coefficient is ±1 whatever the scores. "not defined": one side gives every item the same score (in a variant of good answers, often all supported), so nothing varies to correlate.`

export function fmtCoefCi(x: number | null, iv: readonly [number, number] | null): string {
  if (x === null) return NOT_DEFINED
  return iv === null ? fmtNum(x) : `${fmtNum(x)} [${fmtNum(iv[0])}, ${fmtNum(iv[1])}]`
}

/**
 * A table cell: text, or a figure with the small-sample mark that goes beside it. The reports
 * print the two joined (`cellText`); the Compare view puts the mark on a line of its own under
 * the figure, as its judge table does for κ, so a row of marks does not push the table wide.
 */
export type Cell = string | { text: string; note: string }

export function cellText(c: Cell): string {
  return typeof c === 'string' ? c : withNote(c.text, c.note)
}

/**
 * One coefficient with its interval and small-sample mark. Under MIN_CORRELATION_PAIRS the
 * coefficient is withheld, never "not defined": the data may well define it, there is just too
 * little of it.
 */
export function coefficientParts(
  x: number | null,
  iv: readonly [number, number] | null,
  n: number,
  what = 'items',
): { text: string; note: string } {
  return {
    text: n < MIN_CORRELATION_PAIRS ? WITHHELD : fmtCoefCi(x, iv),
    note: correlationNote(n, what),
  }
}

export function coefficientCell(
  x: number | null,
  iv: readonly [number, number] | null,
  n: number,
  what = 'items',
): string {
  return cellText(coefficientParts(x, iv, n, what))
}

function cells(c: ItemCorrelationRow): Cell[] {
  return [
    String(c.n),
    coefficientParts(c.pearson, c.pearsonCi, c.n),
    coefficientParts(c.spearman, c.spearmanCi, c.n),
    coefficientParts(c.kendallTauB, c.kendallTauBCi, c.n),
  ]
}

/** One row overall per judge (or annotator), unit kind and score, then one per variant when there are several. */
export function itemLevelCells(l: ItemLevel): Cell[][] {
  return l.correlations.flatMap((c) => {
    const head = [c.label, c.unitKind, c.score]
    const variants = Object.entries(c.byVariant)
    return [
      [...head, 'all', ...cells(c.overall)],
      ...(variants.length > 1 ? variants.map(([v, x]) => [...head, v, ...cells(x)]) : []),
    ]
  })
}

/** The same rows as text, as the reports print them. */
export function itemLevelRows(l: ItemLevel): string[][] {
  return itemLevelCells(l).map((r) => r.map(cellText))
}
