import type { ItemCorrelationRow, ItemLevel, SummaryLevelRow } from './contract/itemLevel'
import { fmtNum, NOT_DEFINED } from './contract/metrics'
import { countOf } from './plural'
import {
  atBound,
  BOOTSTRAP_MIN_N,
  boundNote,
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
  'Level',
  'Items',
  'Pearson',
  'Spearman',
  'Kendall τ-b',
]

export const ITEM_LEVEL_NOTE = `One score per response (a candidate of an item) from the verdicts on its units, correlated with the human item score from gold of the same units (annotators: the gold the others make; a DCR run on a dataset whose people score whole responses, such as SummEval, against those scores). Three levels: pooled, every response one pair; summary-level, as the DCR paper reports SummEval (per item, correlated across its responses, then averaged over items; items with fewer than two responses or with one side constant are left out and counted); system-level, each variant's mean scores correlated across variants (n = variants). Intervals: 95%, seeded bootstraps. Pooled: over items, or Fisher's z over fewer than ${BOOTSTRAP_MIN_N} items. Summary-level: over the items averaged. System-level: over items and variants together (Deutsch et al. 2021), so means from few items widen it; over fewer than ${BOOTSTRAP_MIN_N} variants, Fisher's z where that is wider. Over fewer than ${READ_CORRELATION_PAIRS} items (variants at system level) a correlation is marked too few to read; under ${MIN_CORRELATION_PAIRS} none is given (${WITHHELD}): over two items every coefficient is ±1 whatever the scores. A coefficient of exactly ±1 has no interval ("interval undefined at ±1"): Fisher's z is infinite there and a bootstrap repeats ±1, so any interval would be made up. "not defined": one side gives every item the same score (in a variant of good answers, often all supported), so nothing varies to correlate.`

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
 * little of it. `withIntervals`: the figure's kind has intervals (item level), so a ±1 without one
 * says why; target-level correlations, and AUROC, have none to miss.
 */
export function coefficientParts(
  x: number | null,
  iv: readonly [number, number] | null,
  n: number,
  what = 'items',
  withIntervals = false,
): { text: string; note: string } {
  if (n < MIN_CORRELATION_PAIRS) return { text: WITHHELD, note: correlationNote(n, what) }
  const few = correlationNote(n, what)
  // At ±1 the mark says there is no interval, with n unless the too-few mark already gives it.
  const bound =
    withIntervals && iv === null && atBound(x)
      ? few === ''
        ? boundNote(n, what)
        : 'interval undefined at ±1'
      : ''
  return { text: fmtCoefCi(x, iv), note: bound === '' ? few : withNote(bound, few) }
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
    coefficientParts(c.pearson, c.pearsonCi, c.n, 'items', true),
    coefficientParts(c.spearman, c.spearmanCi, c.n, 'items', true),
    coefficientParts(c.kendallTauB, c.kendallTauBCi, c.n, 'items', true),
  ]
}

function summaryCells(s: SummaryLevelRow): Cell[] {
  const n = `${s.items}${s.leftOut > 0 ? ` (${s.leftOut} left out)` : ''}`
  const coef = (x: number | null, iv: readonly [number, number] | null) =>
    coefficientParts(x, iv, s.items, 'items', true)
  return [
    n,
    coef(s.pearson, s.pearsonCi),
    coef(s.spearman, s.spearmanCi),
    coef(s.kendallTauB, s.kendallTauBCi),
  ]
}

function systemCells(c: ItemCorrelationRow): Cell[] {
  return [
    countOf(c.n, 'variant'),
    coefficientParts(c.pearson, c.pearsonCi, c.n, 'variants', true),
    coefficientParts(c.spearman, c.spearmanCi, c.n, 'variants', true),
    coefficientParts(c.kendallTauB, c.kendallTauBCi, c.n, 'variants', true),
  ]
}

export const POOLED = 'pooled'
export const SUMMARY_LEVEL = 'summary-level (per item)'
export const SYSTEM_LEVEL = 'system-level (per variant)'

/**
 * One pooled row per judge (or annotator), unit kind and score; then, with several variants, the
 * summary-level and system-level rows and one pooled row per variant.
 */
export function itemLevelCells(l: ItemLevel): Cell[][] {
  return l.correlations.flatMap((c) => {
    const head = [c.label, c.unitKind, c.score]
    const variants = Object.entries(c.byVariant)
    const several = variants.length > 1
    return [
      [...head, 'all', POOLED, ...cells(c.overall)],
      ...(several
        ? [
            [...head, 'all', SUMMARY_LEVEL, ...summaryCells(c.summaryLevel)],
            [...head, 'all', SYSTEM_LEVEL, ...systemCells(c.systemLevel)],
          ]
        : []),
      ...(several ? variants.map(([v, x]) => [...head, v, POOLED, ...cells(x)]) : []),
    ]
  })
}

/** The same rows as text, as the reports print them. */
export function itemLevelRows(l: ItemLevel): string[][] {
  return itemLevelCells(l).map((r) => r.map(cellText))
}
