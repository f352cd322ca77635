import { describe, expect, it } from 'vitest'
import { queryItems } from '../../src/main/annotate/datasets'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { LabelWriter } from '../../src/main/labels/labels'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { candidateDoneFromRows, candidateDoneKept } from '../annotate/candidateDone'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0180: the candidates each annotator has finished', () => {
  it('fills them for an existing workspace, and "not yet labelled by me" with a variant reads them', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 180) })
    loadDemoIfEmpty(new Workspace(file, old))
    const datasetId = listDatasets(old)[0]!.id
    const me = ensureAnnotator(old, 'finisher')
    // Every target of the first variant's candidates labelled: those candidates are finished.
    const variant = old
      .prepare('SELECT variant FROM dataset_variants WHERE dataset_id = ? ORDER BY first_candidate_id')
      .pluck()
      .get(datasetId) as string
    const targets = old
      .prepare(
        'SELECT t.id FROM targets t JOIN candidates c ON c.id = t.candidate_id WHERE t.dataset_id = ? AND c.variant = ?',
      )
      .pluck()
      .all(datasetId, variant) as number[]
    const writer = new LabelWriter(old)
    for (const t of targets) writer.save({ targetId: t, annotatorId: me.id, verdict: 'true' })
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    expect(candidateDoneKept(ws.db)).toEqual(candidateDoneFromRows(ws.db))
    expect(candidateDoneKept(ws.db).some(([, a]) => a === me.id)).toBe(true)
    const unlabelled = (v: string | null) =>
      queryItems(ws.db, {
        datasetId,
        annotatorId: me.id,
        filter: { status: 'unlabelled', variant: v, search: '' },
        offset: 0,
        limit: 1000,
      })
    expect(unlabelled(variant).total).toBe(0)
    const items = ws.db.prepare('SELECT COUNT(*) FROM items WHERE dataset_id = ?').pluck().get(datasetId)
    expect(unlabelled(null).total).toBe(items)
    ws.close()
  })
})
