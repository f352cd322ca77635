import { createHash } from 'node:crypto'
import type { Db } from '../store/connection'

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/**
 * A fingerprint of what a dataset *says*, independent of row ids, positions and labels: two
 * workspaces that imported the same file get the same hash, so a bundle of labels made on one
 * laptop can be proven to fit the other. Rows are hashed in a canonical order (by ext_id,
 * variant, kind, text) and each row as a JSON array, so no two different contents can collide
 * by concatenation.
 */
export function datasetContentHash(db: Db, datasetId: number): string {
  const hash = createHash('sha256')
  const feed = (section: string, rows: Iterable<unknown>) => {
    hash.update(`${section}\n`)
    for (const row of rows) hash.update(`${JSON.stringify(Object.values(row as object))}\n`)
  }
  feed(
    'items',
    db
      .prepare('SELECT ext_id, question, reference FROM items WHERE dataset_id = ? ORDER BY ext_id')
      .iterate(datasetId),
  )
  feed(
    'candidates',
    db
      .prepare(
        `SELECT i.ext_id, c.variant, c.text FROM candidates c JOIN items i ON i.id = c.item_id
         WHERE i.dataset_id = ? ORDER BY i.ext_id, c.variant`,
      )
      .iterate(datasetId),
  )
  feed(
    'units',
    db
      .prepare(
        `SELECT i.ext_id, c.variant, u.kind, u.text FROM units u JOIN items i ON i.id = u.item_id
         LEFT JOIN candidates c ON c.id = u.candidate_id
         WHERE i.dataset_id = ? AND ${CURRENT}
         ORDER BY i.ext_id, c.variant NULLS FIRST, u.kind, u.text`,
      )
      .iterate(datasetId),
  )
  return hash.digest('hex')
}
