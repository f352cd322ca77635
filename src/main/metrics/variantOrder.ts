import type { Db } from '../store/connection'
import { datasetVariants } from '../store/repos/datasets'

/**
 * The dataset's own order of its variants: that of each variant's first answer (the file's column
 * or file order), as the Project dashboard lists them, so `metrics`, the reports and Compare give
 * "answer, ungrounded, poor" in the same order the dashboard does, not the order of the first
 * target seen. Variants with no candidate (none today) keep their place after the others.
 */
export function inDatasetOrder(db: Db, datasetId: number, variants: readonly string[]): string[] {
  const order = datasetVariants(db, datasetId)
  const rank = new Map(order.map((v, i) => [v, i]))
  return [...variants].sort((a, b) => (rank.get(a) ?? order.length) - (rank.get(b) ?? order.length))
}

/** The same figures keyed in the dataset's order of its variants (a record keeps insertion order). */
function reordered<T>(db: Db, datasetId: number, byVariant: Record<string, T>): Record<string, T> {
  const order = inDatasetOrder(db, datasetId, Object.keys(byVariant))
  return Object.fromEntries(order.map((v) => [v, byVariant[v]!]))
}

/**
 * Agreement's by-variant rows in the dataset's own order of its variants, as every other figure
 * lists them; the passes that work them out key them alphabetically. Applied wherever agreement
 * figures are made (datasetAgreement.ts, agreementForDataset), so the Agreement and Compare views,
 * the reports and the CLI all list them alike. Only the order changes, never a number.
 */
export function agreementInDatasetOrder<F extends ByVariant & { amongSources: ByVariant | null }>(
  db: Db,
  datasetId: number,
  figures: F,
): F {
  const among = figures.amongSources
  return {
    ...figures,
    byVariant: reordered(db, datasetId, figures.byVariant),
    amongSources: among && { ...among, byVariant: reordered(db, datasetId, among.byVariant) },
  }
}

/** Figures keyed by variant (typed by shape: agreementService.ts, which uses this, defines them). */
type ByVariant = { byVariant: Record<string, unknown> }
