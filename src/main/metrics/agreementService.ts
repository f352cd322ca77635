import type { AgreementFigures, CohenPair, SourceAgreement } from '../../shared/contract/agreement'
import { MIN_SHARED_TARGETS } from '../../shared/smallSample'
import { currentLabelsByName } from '../labels/reads'
import type { Db } from '../store/connection'
import { listAnnotators } from '../store/repos/annotators'
import { getDataset } from '../store/repos/datasets'
import { groupSourcePairs, pairOf } from './sourcePairs'
import { cohenKappa, fleissKappa, krippendorffAlpha, percentAgreement } from './stats/agreement'
import { robustFigures } from './stats/robust'
import { percentAgreementCi } from './stats/smallSample'
import { agreementInDatasetOrder } from './variantOrder'

export type { CohenPair, SourceAgreement }
export type AgreementSummary = AgreementFigures

export interface DatasetAgreement extends AgreementSummary {
  /** Pairs of people; the overall figures are theirs alone. */
  cohenPairs: CohenPair[]
  /** Pairs with a source (the dataset's own reference labels), shown apart: person–source first. */
  sourcePairs: CohenPair[]
  /** The sources among themselves (null with fewer than two): the release's own agreement. */
  amongSources: SourceAgreement | null
  byVariant: Record<string, AgreementSummary>
  minSharedTargets: number
}

interface LabelRow {
  targetId: number
  annotator: string
  verdict: string
  variant: string
}

/** Ratings matrix: one row per labelled target, one column per annotator (by name). */
export interface Matrix {
  annotators: string[]
  variants: string[]
  rows: (string | null)[][]
}

function toMatrix(rows: readonly LabelRow[]): Matrix {
  const annotators = [...new Set(rows.map((r) => r.annotator))].sort()
  const col = new Map(annotators.map((a, i) => [a, i]))
  const byTarget = new Map<number, number>()
  const out: (string | null)[][] = []
  const variants: string[] = []
  for (const r of rows) {
    let i = byTarget.get(r.targetId)
    if (i === undefined) {
      i = out.length
      byTarget.set(r.targetId, i)
      out.push(new Array<string | null>(annotators.length).fill(null))
      variants.push(r.variant)
    }
    out[i]![col.get(r.annotator)!] = r.verdict
  }
  return { annotators, variants, rows: out }
}

function summarise(rows: (string | null)[][], numeric: boolean, categories: number): AgreementSummary {
  let n = 0
  for (const row of rows) {
    let present = 0
    for (const v of row) if (v !== null) present++
    if (present >= 2) n++
  }
  const percent = percentAgreement(rows)
  return {
    n,
    percent,
    percentCi: percentAgreementCi(percent, n),
    fleissKappa: fleissKappa(rows),
    krippendorffAlpha: krippendorffAlpha(rows, numeric ? 'interval' : 'nominal'),
    ...robustFigures(rows, categories, numeric),
  }
}

/**
 * Agreement among the annotators of a dataset over current unit versions. Numeric schemas get
 * interval α (a 4 against a 5 is a near miss); categorical ones nominal α.
 */
export function agreementForDataset(
  db: Db,
  datasetId: number,
  opts: { variant?: string; includeControls?: boolean; guidelinesVersion?: number } = {},
): DatasetAgreement {
  const schema = getDataset(db, datasetId).labelSchema
  const numeric = schema.type === 'numeric'
  const rows = currentLabelsByName(db, datasetId, opts.variant, opts)
  const figures = agreementFromMatrix(
    toMatrix(rows),
    numeric,
    schema.type === 'numeric' ? 0 : schema.values.length,
    sourceNames(db),
  )
  return agreementInDatasetOrder(db, datasetId, figures)
}

/** The names of the dataset's own reference labels (sources), kept out of the overall figures. */
export function sourceNames(db: Db): Set<string> {
  return new Set(
    listAnnotators(db)
      .filter((a) => a.kind === 'source')
      .map((a) => a.name),
  )
}

/** The matrix with only the columns `keep` accepts, and the rows left with no label dropped. */
function onlyColumns(m: Matrix, accept: (annotator: string) => boolean): Matrix {
  const keep = m.annotators.flatMap((a, i) => (accept(a) ? [i] : []))
  if (keep.length === m.annotators.length) return m
  const rows: (string | null)[][] = []
  const variants: string[] = []
  m.rows.forEach((r, t) => {
    const row = keep.map((i) => r[i] ?? null)
    if (row.every((v) => v === null)) return
    rows.push(row)
    variants.push(m.variants[t]!)
  })
  return { annotators: keep.map((i) => m.annotators[i]!), variants, rows }
}

/**
 * The same figures from a matrix built elsewhere (the metrics service reuses its label pass).
 * `sources` name the dataset's own reference labels: their pairs go to `sourcePairs`, and the
 * overall and per-variant figures are the people's alone (README: a source never counts towards
 * agreement).
 */
export function agreementFromMatrix(
  m: Matrix,
  numeric: boolean,
  categories = 0,
  sources: ReadonlySet<string> = new Set(),
): DatasetAgreement {
  const cohenPairs: CohenPair[] = []
  const sourcePairs: CohenPair[] = []
  for (let i = 0; i < m.annotators.length; i++)
    for (let j = i + 1; j < m.annotators.length; j++) {
      const a = m.rows.map((r) => r[i] ?? null)
      const b = m.rows.map((r) => r[j] ?? null)
      let n = 0
      for (let t = 0; t < a.length; t++) if (a[t] !== null && b[t] !== null) n++
      const shared = a.flatMap((x, t) => (x !== null && b[t] !== null ? [[x, b[t]!]] : []))
      const robust = robustFigures(shared, categories, numeric)
      const pair = pairOf(
        m.annotators[i]!,
        m.annotators[j]!,
        sources.has(m.annotators[i]!),
        sources.has(m.annotators[j]!),
      )
      ;(pair.kind === 'people' ? cohenPairs : sourcePairs).push({
        ...pair,
        n,
        kappa: cohenKappa(a, b),
        ac1: robust.ac1,
        pabak: robust.pabak,
      })
    }
  const people = scopeFigures(
    onlyColumns(m, (a) => !sources.has(a)),
    numeric,
    categories,
  )
  const released = onlyColumns(m, (a) => sources.has(a))
  const among = released.annotators.length < 2 ? null : scopeFigures(released, numeric, categories)
  return {
    ...people.all,
    cohenPairs,
    sourcePairs: groupSourcePairs(sourcePairs),
    amongSources: among && { ...among.all, names: released.annotators, byVariant: among.byVariant },
    byVariant: people.byVariant,
    minSharedTargets: MIN_SHARED_TARGETS,
  }
}

/** One scope's figures (the people's, or the release's annotators'), overall and by variant. */
function scopeFigures(m: Matrix, numeric: boolean, categories: number) {
  const byVariant: Record<string, AgreementSummary> = {}
  for (const variant of [...new Set(m.variants)].sort())
    byVariant[variant] = summarise(
      m.rows.filter((_, i) => m.variants[i] === variant),
      numeric,
      categories,
    )
  return { all: summarise(m.rows, numeric, categories), byVariant }
}
