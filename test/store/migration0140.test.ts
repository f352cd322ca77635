import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { datasetAgreement } from '../../src/main/metrics/datasetAgreement'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0140: the index the metrics read labels from', () => {
  it('indexes every label of an existing workspace, and the views read them through it', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 140) })
    loadDemoIfEmpty(new Workspace(file, old))
    const id = listDatasets(old)[0]!.id
    old.close()
    // Every label with a verdict before the upgrade is in the index after it.
    const reference = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 140) })
    const labels = reference.prepare('SELECT COUNT(*) FROM labels WHERE verdict IS NOT NULL').pluck().get()
    reference.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    const plan = ws.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT seconds FROM labels INDEXED BY labels_metrics
         WHERE target_id BETWEEN 1 AND 9 AND verdict IS NOT NULL ORDER BY target_id, annotator_id`,
      )
      .all() as { detail: string }[]
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/COVERING INDEX labels_metrics/)
    expect(
      ws.db
        .prepare('SELECT COUNT(*) FROM labels INDEXED BY labels_metrics WHERE verdict IS NOT NULL')
        .pluck()
        .get(),
    ).toBe(labels)
    expect(labels).toBeGreaterThan(0)
    expect(datasetAgreement(ws.db, id).n).toBeGreaterThan(0)
    expect(computeDatasetMetrics(ws.db, id, { replicates: 20 }).humans.length).toBeGreaterThan(0)
    ws.close()
  })
})
