import type { AgreementFigures, CohenPair } from '../../shared/contract/agreement'
import { MIN_SHARED_TARGETS } from '../../shared/smallSample'
import { currentLabelsByName } from '../labels/reads'
import type { Db } from '../store/connection'
import { getDataset } from '../store/repos/datasets'
import { cohenKappa, fleissKappa, krippendorffAlpha, percentAgreement } from './stats/agreement'
import { robustFigures } from './stats/robust'
import { percentAgreementCi } from './stats/smallSample'

export type { CohenPair }
export type AgreementSummary = AgreementFigures

export interface DatasetAgreement extends AgreementSummary {
  cohenPairs: CohenPair[]
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
  return agreementFromMatrix(toMatrix(rows), numeric, schema.type === 'numeric' ? 0 : schema.values.length)
}

/** The same figures from a matrix built elsewhere (the metrics service reuses its label pass). */
export function agreementFromMatrix(m: Matrix, numeric: boolean, categories = 0): DatasetAgreement {
  const cohenPairs: CohenPair[] = []
  for (let i = 0; i < m.annotators.length; i++)
    for (let j = i + 1; j < m.annotators.length; j++) {
      const a = m.rows.map((r) => r[i] ?? null)
      const b = m.rows.map((r) => r[j] ?? null)
      let n = 0
      for (let t = 0; t < a.length; t++) if (a[t] !== null && b[t] !== null) n++
      const shared = a.flatMap((x, t) => (x !== null && b[t] !== null ? [[x, b[t]!]] : []))
      const robust = robustFigures(shared, categories, numeric)
      cohenPairs.push({
        a: m.annotators[i]!,
        b: m.annotators[j]!,
        n,
        kappa: cohenKappa(a, b),
        ac1: robust.ac1,
        pabak: robust.pabak,
      })
    }
  const byVariant: Record<string, AgreementSummary> = {}
  for (const variant of [...new Set(m.variants)].sort()) {
    byVariant[variant] = summarise(
      m.rows.filter((_, i) => m.variants[i] === variant),
      numeric,
      categories,
    )
  }
  return {
    ...summarise(m.rows, numeric, categories),
    cohenPairs,
    byVariant,
    minSharedTargets: MIN_SHARED_TARGETS,
  }
}
