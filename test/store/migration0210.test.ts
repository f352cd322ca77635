import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { UNIT_ITEMS_INDEX } from '../../src/main/annotate/searchHits'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { deleteUnit, editUnit } from '../../src/main/units/edit'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe("migration 0210: the current units' items", () => {
  it('indexes every current unit of an existing workspace, and searches find the same items as before', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 210) })
    loadDemoIfEmpty(new Workspace(file, old))
    const datasetId = listDatasets(old)[0]!.id
    const units = old.prepare('SELECT id, text FROM units ORDER BY id LIMIT 2').all() as {
      id: number
      text: string
    }[]
    const word = (units[0]!.text.match(/\p{L}{4,}/u) ?? ['the'])[0]!
    const search = (db: typeof old) =>
      queryItems(db, {
        datasetId,
        annotatorId: null,
        filter: { status: 'all', variant: null, search: word },
        offset: 0,
        limit: 1000,
      })
    const before = search(old)
    expect(before.total).toBeGreaterThan(0)
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    expect(search(ws.db)).toEqual(before)
    // The index follows edits and deletes: it lists exactly the current units and their items.
    editUnit(ws.db, units[0]!.id, 'Basalt cools quickly')
    deleteUnit(ws.db, units[1]!.id)
    const indexed = ws.db
      .prepare(
        `SELECT id, item_id FROM units INDEXED BY ${UNIT_ITEMS_INDEX}
         WHERE superseded_by IS NULL AND deleted_at IS NULL ORDER BY id`,
      )
      .all()
    const rows = ws.db
      .prepare(
        'SELECT id, item_id FROM units NOT INDEXED WHERE superseded_by IS NULL AND deleted_at IS NULL ORDER BY id',
      )
      .all()
    expect(indexed).toEqual(rows)
    expect(rows.some((r) => (r as { id: number }).id === units[1]!.id)).toBe(false)
    ws.close()
  })
})
