import type { Db } from '../store/connection'

/**
 * The partial index of migration 0210: each current unit's id and item, some 15 MB at a million
 * units. Finding the item of each unit a common word matches through it, rather than through
 * the units' own rows (text and all, about seven times as many pages), is what keeps a search
 * for such a word under the items view's bar.
 */
export const UNIT_ITEMS_INDEX = 'units_current_item'

const CURRENT = 'u.superseded_by IS NULL AND u.deleted_at IS NULL'

/**
 * Item ids (of any dataset, repeats possible) whose id, question, reference, a candidate or a
 * current unit holds every word of the @fts query. Each table has its own index, so a word in
 * the question and another in a candidate do not make a match: a search within one text.
 */
const matchingSql = (unitItems: string) => [
  'SELECT rowid FROM items_fts WHERE items_fts MATCH @fts',
  'SELECT c.item_id FROM candidates_fts f JOIN candidates c ON c.id = f.rowid WHERE candidates_fts MATCH @fts',
  `SELECT u.item_id FROM units_fts f JOIN units u ${unitItems} ON u.id = f.rowid WHERE units_fts MATCH @fts AND ${CURRENT}`,
]

const hasUnitItemsIndex = (db: Db) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(UNIT_ITEMS_INDEX) !==
  undefined

/** Past this item id a list of flags would be mostly empty: a Set holds the hits instead. */
const FLAGS_UP_TO = 2 ** 24

/**
 * The items of a dataset that an FTS5 query finds, in the items view's order (position, then
 * id). The matches are gathered in memory and the dataset's items walked once in order along
 * its (dataset_id, position) index, instead of a temporary table the count and the page each
 * join again: a word in a tenth of a million units is some 120,000 matches, and each row
 * SQLite writes and reads back costs more than a flag set in an array. The count is the list's
 * length, a page a slice of it.
 */
export function matchingItems(db: Db, datasetId: number, fts: string): number[] {
  // A workspace opened read-only before migration 0210 has no such index: its units are read.
  const unitItems = hasUnitItemsIndex(db) ? `INDEXED BY ${UNIT_ITEMS_INDEX}` : ''
  const maxId = (db.prepare('SELECT MAX(id) FROM items').pluck().get() as number | null) ?? 0
  const flags = maxId < FLAGS_UP_TO ? new Uint8Array(maxId + 1) : null
  const set = flags ? null : new Set<number>()
  for (const sql of matchingSql(unitItems)) {
    for (const id of db.prepare(sql).pluck().all({ fts }) as number[]) {
      if (flags) flags[id] = 1
      else set?.add(id)
    }
  }
  const inOrder = db
    .prepare('SELECT id FROM items WHERE dataset_id = ? ORDER BY position, id')
    .pluck()
    .all(datasetId) as number[]
  return inOrder.filter(flags ? (id) => flags[id] === 1 : (id) => set?.has(id) === true)
}
