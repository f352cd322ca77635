import { createHash } from 'node:crypto'
import type { Db } from '../store/connection'

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/**
 * The largest item, candidate and unit ids an import wrote: the dataset as imported is what lies
 * at or below them (export/datasetOrigin.ts).
 */
export interface ImportedRows {
  items: number
  candidates: number
  units: number
}

/**
 * A fingerprint of what a dataset *says*, independent of row ids, positions and labels: two
 * workspaces that imported the same file get the same hash, so a bundle of labels made on one
 * laptop can be proven to fit the other. Rows are hashed in a canonical order (by ext_id,
 * variant, kind, text) and each row as a JSON array, so no two different contents can collide
 * by concatenation.
 *
 * With `asImported`, the fingerprint of the dataset as its import left it, however it was edited
 * since: only the rows the import wrote, each unit version chain by its first row with the
 * wording it had then (`origin_text` keeps it through edits in place). Right after an import the
 * two fingerprints are the same.
 */
export function datasetContentHash(db: Db, datasetId: number, asImported?: ImportedRows): string {
  const hash = createHash('sha256')
  const feed = (section: string, rows: Iterable<unknown>) => {
    hash.update(`${section}\n`)
    for (const row of rows) hash.update(`${JSON.stringify(Object.values(row as object))}\n`)
  }
  const upTo = asImported ?? { items: -1, candidates: -1, units: -1 }
  const all = asImported ? 0 : 1
  feed(
    'items',
    db
      .prepare(
        'SELECT ext_id, question, reference FROM items WHERE dataset_id = ? AND (? OR id <= ?) ORDER BY ext_id',
      )
      .iterate(datasetId, all, upTo.items),
  )
  feed(
    'candidates',
    db
      .prepare(
        `SELECT i.ext_id, c.variant, c.text FROM candidates c JOIN items i ON i.id = c.item_id
         WHERE i.dataset_id = ? AND (? OR c.id <= ?) ORDER BY i.ext_id, c.variant`,
      )
      .iterate(datasetId, all, upTo.candidates),
  )
  feed(
    'units',
    asImported
      ? db
          .prepare(
            `SELECT i.ext_id, c.variant, u.kind, COALESCE(u.origin_text, u.text) AS text FROM units u
             JOIN items i ON i.id = u.item_id LEFT JOIN candidates c ON c.id = u.candidate_id
             WHERE i.dataset_id = ? AND u.id <= ? AND (u.lineage_id IS NULL OR u.lineage_id = u.id)
             ORDER BY i.ext_id, c.variant NULLS FIRST, u.kind, text`,
          )
          .iterate(datasetId, asImported.units)
      : db
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
