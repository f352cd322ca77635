import type { Db } from '../connection'
import { datasetVisible } from './datasets'

/** Whether a call may use this candidate: it exists and its dataset is not still being imported. */
export function candidateVisible(db: Db, candidateId: number): boolean {
  const row = db
    .prepare(
      'SELECT i.dataset_id AS datasetId FROM candidates c JOIN items i ON i.id = c.item_id WHERE c.id = ?',
    )
    .get(candidateId) as { datasetId: number } | undefined
  return row !== undefined && datasetVisible(db, row.datasetId)
}
