import type { Db } from '../store/connection'

/** The exported targets' own fields (unit, kind, origin, control answer), in reading order. */

// Unit kinds and the common origins come from SQL as small numbers: a million rows then share
// a handful of strings instead of each bringing its own copy.
export const KINDS = ['fact', 'triplet', 'sentence', 'whole'] as const
export const ORIGINS = ['import', 'llm', 'hand', 'edit', 'merge', 'splitter'] as const
const coded = (column: string, values: readonly string[]) =>
  `CASE ${column} ${values.map((v, k) => `WHEN '${v}' THEN ${k}`).join(' ')} ELSE ${column} END`

export type MainSql = [
  targetId: number,
  itemId: number,
  position: number,
  candidateId: number,
  kind: string | number,
  text: string,
  version: number,
  origin: string | number,
  triplet: string | null,
  /** The known answer when the target is a control item. */
  control: string | null,
]

/** Items per read of the targets' rows: some 10,000 rows, a few MB. */
const CHUNK_ITEMS = 1000

/**
 * The current targets' own fields in reading order, read about a thousand items at a time (by
 * ranges of item positions, so the order is the one of a single statement): one `.all()` per
 * chunk costs less than stepping a cursor row by row from JavaScript.
 */
export function* mainRows(db: Db, datasetId: number): Generator<MainSql[]> {
  const select = (range: string) =>
    db
      .prepare(
        `SELECT t.id, i.id, i.position, t.candidate_id, ${coded('u.kind', KINDS)}, u.text, u.version,
           ${coded('u.origin', ORIGINS)}, u.triplet, (SELECT verdict FROM controls WHERE target_id = t.id)
         FROM items i INDEXED BY items_by_dataset CROSS JOIN targets t ON t.item_id = i.id AND t.dataset_id = i.dataset_id
         JOIN units u ON u.id = t.unit_id
         WHERE i.dataset_id = ? AND ${range} AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         ORDER BY i.position, t.candidate_id, u.kind, u.position, u.id`,
      )
      .raw()
  const positions = db
    .prepare(
      'SELECT DISTINCT position FROM items INDEXED BY items_by_dataset WHERE dataset_id = ? ORDER BY position',
    )
    .pluck()
    .all(datasetId) as number[]
  const between = select('i.position >= ? AND i.position < ?')
  const from = select('i.position >= ?')
  for (let k = 0; k < positions.length; k += CHUNK_ITEMS) {
    const lo = positions[k]!
    const hi = positions[k + CHUNK_ITEMS]
    yield (hi === undefined ? from.all(datasetId, lo) : between.all(datasetId, lo, hi)) as MainSql[]
  }
}
