import { hostname } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { RunLeaseHeld, readLease } from '../../src/main/runs/lease'
import { LEASE_STALE_MS } from '../../src/main/runs/leaseRules'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, foreignLease, makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

const callCount = (ws: Workspace, runId: number) =>
  (ws.db.prepare('SELECT COUNT(*) AS n FROM run_calls WHERE run_id = ?').get(runId) as { n: number }).n

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10))
}

describe('one driver per run', () => {
  it('refuses a second engine while the first drives; pausing frees the run for it', async () => {
    fake.setLatency(30)
    const { ws, datasetId } = makeWorkspace(dir(), 10, 2)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { concurrency: 1, cache: false }))
    const app = engineFor(ws, { driver: 'app' })
    const cliSide = engineFor(ws, { driver: 'cli' })
    const running = app.start(runId)
    await until(() => callCount(ws, runId) >= 1)

    expect(() => cliSide.start(runId)).toThrow(RunLeaseHeld)
    expect(() => cliSide.start(runId)).toThrow(
      new RegExp(
        `^run ${runId} is being driven by the desktop app, pid ${process.pid} on host ${hostname()}`,
      ),
    )
    expect(() => cliSide.cancel(runId)).toThrow(RunLeaseHeld)
    expect(cliSide.isActive(runId)).toBe(false)

    app.pause(runId)
    expect((await running).status).toBe('paused')
    expect(readLease(ws.db, runId)).toBeNull()
    fake.setLatency(0)
    expect(await cliSide.start(runId)).toMatchObject({ status: 'done', verdicts: 20 })
    expect(callCount(ws, runId)).toBe(10)
    ws.close()
  })

  it('waits for a driver on another host that is still heard from, and takes over once it falls silent', async () => {
    fake.setLatency(0)
    const { ws, datasetId } = makeWorkspace(dir(), 3, 1)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl))
    foreignLease(ws, runId, 1_000)
    const notices: string[] = []
    const engine = engineFor(ws, { onNotice: (_id, m) => notices.push(m) })
    expect(() => engine.start(runId)).toThrow(/being driven by the CLI, pid 4242 on host other-host, since/)
    expect(callCount(ws, runId)).toBe(0)

    foreignLease(ws, runId, LEASE_STALE_MS + 1_000)
    expect(await engine.start(runId)).toMatchObject({ status: 'done', verdicts: 3 })
    expect(notices).toEqual([
      expect.stringMatching(/from the CLI, pid 4242 on host other-host.*not been heard from/),
    ])
    const log = ws.db.prepare('SELECT event, host FROM run_lease_log WHERE run_id = ? ORDER BY id').all(runId)
    expect(log).toEqual([
      { event: 'taken-over', host: hostname() },
      { event: 'released', host: hostname() },
    ])
    ws.close()
  })

  it('drives a taken-over run to the end and lets go of it even when the notice cannot be shown', async () => {
    fake.setLatency(0)
    const { ws, datasetId } = makeWorkspace(dir(), 3, 1)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl))
    foreignLease(ws, runId, LEASE_STALE_MS + 1_000)
    const engine = engineFor(ws, {
      onNotice: () => {
        throw new Error('the window is gone')
      },
    })
    expect(await engine.start(runId)).toMatchObject({ status: 'done', verdicts: 3 })
    expect(readLease(ws.db, runId)).toBeNull()
    ws.close()
  })

  it('stops driving, and leaves the status alone, when another driver has taken the run over', async () => {
    fake.setLatency(30)
    const { ws, datasetId } = makeWorkspace(dir(), 30, 1)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { concurrency: 1, cache: false }))
    const engine = engineFor(ws, { leaseHeartbeatMs: 20 })
    const running = engine.start(runId)
    await until(() => callCount(ws, runId) >= 2)
    // What a takeover by a process elsewhere looks like from here.
    ws.db
      .prepare("UPDATE run_leases SET owner = 'far-away', pid = 4242, host = 'other-host' WHERE run_id = ?")
      .run(runId)
    const summary = await running
    expect(summary.status).toBe('running')
    expect(callCount(ws, runId)).toBeLessThan(30)
    expect(readLease(ws.db, runId)).toMatchObject({ owner: 'far-away', host: 'other-host' })
    fake.setLatency(0)
    ws.close()
  })
})
