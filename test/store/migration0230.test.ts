import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { LabelWriter } from '../../src/main/labels/labels'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { addUnit } from '../../src/main/units/edit'
import { candidateDoneFromRows, candidateDoneKept } from '../annotate/candidateDone'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0230: a new unit takes its item and answers off the finished ones', () => {
  it('keeps what an older workspace had, and a fact added to a finished item makes it unfinished again', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 230) })
    loadDemoIfEmpty(new Workspace(file, old))
    const datasetId = listDatasets(old)[0]!.id
    const me = ensureAnnotator(old, 'finisher')
    const itemId = old
      .prepare('SELECT id FROM items WHERE dataset_id = ? ORDER BY position')
      .pluck()
      .get(datasetId) as number
    const writer = new LabelWriter(old)
    for (const t of old.prepare('SELECT id FROM targets WHERE item_id = ?').pluck().all(itemId) as number[])
      writer.save({ targetId: t, annotatorId: me.id, verdict: 'true' })
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    const left = () =>
      queryItems(ws.db, {
        datasetId,
        annotatorId: me.id,
        filter: { status: 'unlabelled', variant: null, search: '' },
        offset: 0,
        limit: 1000,
      }).rows.map((r) => r.itemId)
    expect(left()).not.toContain(itemId)
    expect(candidateDoneKept(ws.db)).toEqual(candidateDoneFromRows(ws.db))

    addUnit(ws.db, { itemId, kind: 'fact', text: 'A fact nobody has labelled yet.' })
    expect(left()).toContain(itemId)
    expect(candidateDoneKept(ws.db)).toEqual(candidateDoneFromRows(ws.db))
    expect(candidateDoneKept(ws.db).some(([, a]) => a === me.id)).toBe(false)
    ws.close()
  })
})
