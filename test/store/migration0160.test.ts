import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { LabelWriter } from '../../src/main/labels/labels'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { type Db, LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { ensureAnnotator } from '../../src/main/store/repos/annotators'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0160: the label blocks', () => {
  it('upgrades a labelled workspace to the same figures, built into blocks on first look and kept in step after', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 160) })
    loadDemoIfEmpty(new Workspace(file, old))
    const id = listDatasets(old)[0]!.id
    const before = {
      metrics: computeDatasetMetrics(old, id, { replicates: 20 }),
      agreement: datasetAgreement(old, id),
    }
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    const blocks = () => ws.db.prepare('SELECT COUNT(*) FROM label_blocks').pluck().get() as number
    // Nothing is built at the upgrade itself: opening stays quick however many labels there are.
    expect(blocks()).toBe(0)
    const after = {
      metrics: computeDatasetMetrics(ws.db, id, { replicates: 20 }),
      agreement: datasetAgreement(ws.db, id),
    }
    expect(after).toEqual(before)
    expect(before.agreement.n).toBeGreaterThan(0)
    expect(blocks()).toBeGreaterThan(0)
    // A label saved after the upgrade drops its block, and the figures take it in.
    const [target, verdict] = ws.db
      .prepare(
        `SELECT l.target_id, l.verdict FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE t.dataset_id = ? AND l.verdict IS NOT NULL LIMIT 1`,
      )
      .raw()
      .get(id) as [number, string]
    const held = blocks()
    new LabelWriter(ws.db).save({ targetId: target, annotatorId: ensureAnnotator(ws.db, 'zed').id, verdict })
    expect(blocks()).toBe(held - 1)
    ws.close()
    // A workspace opened read-only builds the missing block without storing it.
    const readonly = new Database(file, { readonly: true }) as Db
    const seen = datasetAgreement(readonly, id)
    expect(readonly.prepare('SELECT COUNT(*) FROM label_blocks').pluck().get()).toBe(held - 1)
    readonly.close()
    expect(seen.cohenPairs.some((p) => p.a === 'zed' || p.b === 'zed')).toBe(true)
    const again = Workspace.open(file)
    expect(datasetAgreement(again.db, id)).toEqual(seen)
    again.close()
  })
})
