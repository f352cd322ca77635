import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { ftsQuery, MAX_TERMS, matchingItems } from '../../src/main/annotate/search'
import { wordsContaining } from '../../src/main/annotate/vocabulary'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { deleteUnit } from '../../src/main/units/edit'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const CURRENT = 'superseded_by IS NULL AND deleted_at IS NULL'

describe('migration 0210: the item-level word index of the units', () => {
  it('fills one row per item with a current unit, and one-word searches find what they found before', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 210) })
    loadDemoIfEmpty(new Workspace(file, old))
    const datasetId = listDatasets(old)[0]!.id
    // A deleted unit whose word is in no other unit: its item must not be found by it.
    const unit = old.prepare('SELECT id, item_id, text FROM units ORDER BY id LIMIT 1').get() as {
      id: number
      item_id: number
      text: string
    }
    old.prepare("UPDATE units SET text = 'Zanzibarite is rare' WHERE id = ?").run(unit.id)
    deleteUnit(old, unit.id)
    // What every word of the demo's units finds, by the search as it was before the migration.
    const words = [
      ...new Set(
        (old.prepare(`SELECT text FROM units WHERE ${CURRENT}`).pluck().all() as string[]).flatMap(
          (t) => t.toLowerCase().match(/[a-z]{4,}/g) ?? [],
        ),
      ),
    ].slice(0, 40)
    const all = [...words, 'zanzibarite']
    // Before: the query of the old schema, every word unit by unit through units_fts.
    const before = all.map((w) => {
      const fts = ftsQuery(w, (piece) => wordsContaining(old, piece, MAX_TERMS))
      const ids = old
        .prepare(
          `SELECT id FROM items WHERE dataset_id = @ds AND id IN (${matchingItems(false)}) ORDER BY position`,
        )
        .pluck()
        .all({ ds: datasetId, fts }) as number[]
      return [w, ids.length, ids]
    })
    const found = (db: typeof old) =>
      all.map((w) => {
        const page = queryItems(db, {
          datasetId,
          annotatorId: null,
          filter: { status: 'all', variant: null, search: w },
          offset: 0,
          limit: 1000,
        })
        return [w, page.total, page.rows.map((r) => r.itemId)]
      })
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    const rows = ws.db.prepare('SELECT rowid FROM item_units_fts ORDER BY rowid').pluck().all()
    const items = ws.db
      .prepare(`SELECT DISTINCT item_id FROM units WHERE ${CURRENT} ORDER BY item_id`)
      .pluck()
      .all()
    expect(rows).toEqual(items)
    expect(found(ws.db)).toEqual(before)
    expect(before.at(-1)).toEqual(['zanzibarite', 0, []])
    ws.close()
  })
})
