import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { RunLeaseHeld, readLease } from '../../src/main/runs/lease'
import { setRunStatus } from '../../src/main/runs/repo'
import { openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, oneRun, runRequest } from '../runs/helpers'

const tmp = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

describe('migration 0040: run lease', () => {
  it('upgrades a 0030 workspace whose run was interrupted, which then resumes under a lease', async () => {
    // A run left "running" by a FactLab from before leases, killed half-way.
    const file = join(tmp(), 'w.factlab')
    const old = new Workspace(
      file,
      openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 40) }),
    )
    const ds = createDataset(old.db, { name: 'd', labelSchema: FAAF_SCHEMA })
    for (let i = 0; i < 4; i++) {
      const item = old.content.insertItem(ds.id, { extId: `q${i}`, question: `Q${i}?`, reference: 'R.' }, i)
      old.content.insertCandidate(item, { variant: 'answer', text: `A${i}.` })
      for (let f = 0; f < 2; f++) old.content.insertUnit(item, { kind: 'fact', text: `fact ${f} of ${i}` })
    }
    const runId = oneRun(old, runRequest(ds.id, fake.openaiUrl))
    setRunStatus(old.db, runId, 'running')
    expect(schemaVersion(old.db)).toBe(30)
    old.close()

    const ws = Workspace.open(file)
    expect(schemaVersion(ws.db)).toBeGreaterThanOrEqual(40)
    // Nobody holds the interrupted run after the upgrade: it can be resumed straight away.
    expect(readLease(ws.db, runId)).toBeNull()
    const first = engineFor(ws)
    const running = first.start(runId)
    expect(() => engineFor(ws).start(runId)).toThrow(RunLeaseHeld)
    expect(await running).toMatchObject({ status: 'done', verdicts: 8 })
    expect(
      ws.db.prepare('SELECT event FROM run_lease_log WHERE run_id = ? ORDER BY id').pluck().all(runId),
    ).toEqual(['claimed', 'released'])

    // A lease and its history go with their run; a run has at most one lease.
    ws.db
      .prepare(
        "INSERT INTO run_leases (run_id, owner, driver, pid, host, acquired_at, heartbeat_at) VALUES (?, 'a', 'cli', 1, 'h', 'x', 'x')",
      )
      .run(runId)
    expect(() =>
      ws.db
        .prepare(
          "INSERT INTO run_leases (run_id, owner, driver, pid, host, acquired_at, heartbeat_at) VALUES (?, 'b', 'app', 2, 'h', 'x', 'x')",
        )
        .run(runId),
    ).toThrow(/UNIQUE|PRIMARY KEY/)
    ws.db.prepare('DELETE FROM runs WHERE id = ?').run(runId)
    expect(ws.db.prepare('SELECT COUNT(*) FROM run_leases').pluck().get()).toBe(0)
    expect(ws.db.prepare('SELECT COUNT(*) FROM run_lease_log').pluck().get()).toBe(0)
    ws.close()
  })
})
