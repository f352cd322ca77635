import type { Db } from '../store/connection'

/**
 * The dataset's own order of its variants: that of each variant's first answer (the file's column
 * or file order), as the Project dashboard lists them, so `metrics`, the reports and Compare give
 * "answer, ungrounded, poor" in the same order the dashboard does, not the order of the first
 * target seen. Variants with no candidate (none today) keep their place after the others.
 */
export function inDatasetOrder(db: Db, datasetId: number, variants: readonly string[]): string[] {
  const order = db
    .prepare(
      `SELECT c.variant FROM candidates c JOIN items i ON i.id = c.item_id
       WHERE i.dataset_id = ? GROUP BY c.variant ORDER BY MIN(c.id)`,
    )
    .pluck()
    .all(datasetId) as string[]
  const rank = new Map(order.map((v, i) => [v, i]))
  return [...variants].sort((a, b) => (rank.get(a) ?? order.length) - (rank.get(b) ?? order.length))
}
