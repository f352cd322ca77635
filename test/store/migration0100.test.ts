import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { loadDemoIfEmpty } from '../../src/main/demo/loadDemo'
import { computeDatasetMetrics } from '../../src/main/metrics/service'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { LATEST_VERSION, MIGRATIONS } from '../../src/main/store/migrations'
import { listDatasets } from '../../src/main/store/repos/datasets'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

describe('migration 0100: verdict columns', () => {
  it('upgrades a workspace with judge runs without changing a figure', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 100) })
    loadDemoIfEmpty(new Workspace(file, old))
    // Two judge runs over the demo's first dataset, one with a hole and an N/A.
    const targets = old.prepare('SELECT id, dataset_id FROM targets ORDER BY id').all() as {
      id: number
      dataset_id: number
    }[]
    for (const model of ['a', 'b']) {
      const run = old
        .prepare(
          `INSERT INTO runs (kind, dataset_id, provider, model, method, status, created_at)
           VALUES ('imported', ?, 'imported', ?, 'faaf-tf', 'done', '2026-01-01')`,
        )
        .run(targets[0]!.dataset_id, model).lastInsertRowid
      targets
        .filter((t) => t.dataset_id === targets[0]!.dataset_id)
        .forEach((t, i) => {
          if (i === 3 && model === 'b') return
          old
            .prepare('INSERT INTO verdicts (run_id, target_id, status, verdict) VALUES (?, ?, ?, ?)')
            .run(run, t.id, i === 5 ? 'na' : 'ok', i === 5 ? null : i % 3 === 0 ? 'false' : 'true')
        })
    }
    const before = listDatasets(old).map((d) => computeDatasetMetrics(old, d.id, { replicates: 50 }))
    const verdicts = old.prepare('SELECT count(*) FROM verdicts').pluck().get() as number
    old.close()
    expect(verdicts).toBeGreaterThan(0)

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBe(LATEST_VERSION)
    const after = listDatasets(ws.db).map((d) => computeDatasetMetrics(ws.db, d.id, { replicates: 50 }))
    expect(after).toEqual(before)
    // The first read stored the runs' columns; a changed verdict drops its run's column again.
    const runId = ws.db.prepare('SELECT run_id FROM verdicts LIMIT 1').pluck().get() as number
    expect(ws.db.prepare('SELECT count(*) FROM verdict_columns WHERE run_id = ?').pluck().get(runId)).toBe(1)
    ws.db
      .prepare(
        "UPDATE verdicts SET status = 'error', verdict = NULL WHERE run_id = ? AND rowid = (SELECT min(rowid) FROM verdicts WHERE run_id = ?)",
      )
      .run(runId, runId)
    expect(ws.db.prepare('SELECT count(*) FROM verdict_columns WHERE run_id = ?').pluck().get(runId)).toBe(0)
    ws.close()
  })
})
