import type { Db } from '../store/connection'
import { immediate } from './atomic'

/** A chunk closes at this many items or this much written work, whichever comes first. */
export const CHUNK_ITEMS = 300
export const CHUNK_WORK = 6000

/**
 * Writes an import into its hidden dataset one short transaction at a time, so that a label
 * saved meanwhile waits at most for one chunk. Each chunk also adds its own rows to the search
 * index in three bulk statements: migration 0050 keeps the per-row triggers off an importing
 * dataset, since those cost about as much as the rest of the import together. Every committed
 * row is therefore indexed, whether the import later completes or is withdrawn.
 */
export class ChunkWriter {
  private readonly maxIds
  private readonly index
  private readonly itemWords

  constructor(
    private readonly db: Db,
    private readonly datasetId: number,
  ) {
    this.maxIds = db.prepare(
      `SELECT (SELECT COALESCE(MAX(id), 0) FROM items) AS items,
              (SELECT COALESCE(MAX(id), 0) FROM candidates) AS candidates,
              (SELECT COALESCE(MAX(id), 0) FROM units) AS units`,
    )
    // New candidates and units of this dataset, on new items or (a multi-file import adding a
    // variant) on items an earlier chunk wrote: a row lookup per new row, never a dataset scan.
    const ofDataset = (t: string) =>
      `EXISTS (SELECT 1 FROM items i WHERE i.id = ${t}.item_id AND i.dataset_id = @ds)`
    this.index = [
      db.prepare(
        `INSERT INTO items_fts (rowid, ext_id, question, reference)
         SELECT id, ext_id, question, reference FROM items WHERE dataset_id = @ds AND id > @items`,
      ),
      db.prepare(
        `INSERT INTO candidates_fts (rowid, text) SELECT id, text FROM candidates WHERE id > @candidates AND ${ofDataset('candidates')}`,
      ),
      db.prepare(
        `INSERT INTO units_fts (rowid, text) SELECT id, text FROM units WHERE id > @units AND ${ofDataset('units')}`,
      ),
    ]
    // The item-level word index (migration 0210) holds one row per item: an item this import
    // gave units gets its row written anew from all its current units. Items from an earlier
    // chunk (a variant added by a later file) lose their old row first, found by rowid.
    const touched = `SELECT item_id FROM units WHERE id > @units AND ${ofDataset('units')}`
    this.itemWords = {
      older: db
        .prepare(
          `SELECT DISTINCT item_id FROM units WHERE id > @units AND item_id <= @items AND ${ofDataset('units')}`,
        )
        .pluck(),
      drop: db.prepare('DELETE FROM item_units_fts WHERE rowid = ?'),
      write: db.prepare(
        `INSERT INTO item_units_fts (rowid, text) SELECT item_id, group_concat(text, char(10)) FROM units
         WHERE item_id IN (${touched}) AND superseded_by IS NULL AND deleted_at IS NULL GROUP BY item_id`,
      ),
    }
  }

  /** Runs one chunk's writes and indexes what they added, in one transaction. */
  write<T>(fn: () => T): T {
    return immediate(this.db, () => {
      // New rows take ids above the current maximum, and nobody else writes while this runs.
      const before = this.maxIds.get() as { items: number; candidates: number; units: number }
      const out = fn()
      const params = { ds: this.datasetId, ...before }
      for (const stmt of this.index) stmt.run(params)
      for (const id of this.itemWords.older.all(params)) this.itemWords.drop.run(id)
      this.itemWords.write.run({ ds: this.datasetId, units: before.units })
      return out
    })
  }
}

/** Lets other work (a label being saved, a second import) run between two chunks. */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve))
