import type { DatasetAgreement } from '../../metrics/agreementService'
import { inDatasetOrder } from '../../metrics/variantOrder'
import type { Db } from '../../store/connection'

/** The same figures keyed in the dataset's order of its variants (a record keeps insertion order). */
function reordered<T>(db: Db, datasetId: number, byVariant: Record<string, T>): Record<string, T> {
  const order = inDatasetOrder(db, datasetId, Object.keys(byVariant))
  return Object.fromEntries(order.map((v) => [v, byVariant[v]!]))
}

/**
 * Agreement's by-variant rows in the dataset's own order of its variants, as metrics, Compare,
 * the reports and the Project view list them, not alphabetically as the figures come keyed.
 */
export function agreementInDatasetOrder(
  db: Db,
  datasetId: number,
  figures: DatasetAgreement,
): DatasetAgreement {
  const among = figures.amongSources
  return {
    ...figures,
    byVariant: reordered(db, datasetId, figures.byVariant),
    amongSources: among && { ...among, byVariant: reordered(db, datasetId, among.byVariant) },
  }
}
