import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportVerdicts } from '../../src/main/export/verdictsExport'
import type { JudgeMethodImpl } from '../../src/main/judges/types'
import { saveModel } from '../../src/main/providers/models'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { MISSING_VERDICT } from '../../src/main/runs/accounting'
import { createRuns } from '../../src/main/runs/create'
import type { RunProgress } from '../../src/main/runs/engine'
import { getRun } from '../../src/main/runs/repo'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, makeWorkspace, miniFaaf, oneRun, runRequest, TEST_KEY, verdictRows } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

describe('run engine', () => {
  it('answers a re-run of an identical config from the cache with zero calls', async () => {
    fake.setScript(answerAll('false'))
    const { ws, datasetId } = makeWorkspace(dir(), 5, 3)
    const first = await engineFor(ws).start(oneRun(ws, runRequest(datasetId, fake.openaiUrl)))
    expect(first).toMatchObject({ status: 'done', calls: 5, cached: 0, verdicts: 15 })
    const before = fake.calls()
    const secondId = oneRun(ws, runRequest(datasetId, fake.openaiUrl))
    const second = await engineFor(ws).start(secondId)
    expect(fake.calls()).toBe(before)
    expect(second).toMatchObject({ status: 'done', calls: 0, cached: 5, verdicts: 15, cost: 0 })
    expect(verdictRows(ws, secondId).every((r) => r.verdict === 'false')).toBe(true)
    ws.close()
  })

  it('asks again for each repeat, and serves an identical set of repeats from the cache', async () => {
    fake.setScript(answerAll('true'))
    const { ws, datasetId } = makeWorkspace(dir(), 4, 2)
    const engine = engineFor(ws)
    const before = fake.calls()
    const ids = createRuns(ws.db, runRequest(datasetId, fake.openaiUrl), 3)
    expect(ids.map((id) => getRun(ws.db, id).repeatIndex)).toEqual([0, 1, 2])
    for (const id of ids) await engine.start(id)
    expect(fake.calls() - before).toBe(12)
    const again = createRuns(ws.db, runRequest(datasetId, fake.openaiUrl), 3)
    for (const id of again) expect((await engine.start(id)).cached).toBe(4)
    expect(fake.calls() - before).toBe(12)
    ws.close()
  })

  it('keeps a target the judge forgot as N/A with a reason, never dropping it', async () => {
    const forgetful: JudgeMethodImpl = {
      ...miniFaaf,
      name: 'forgetful',
      async judge(task, ctx) {
        const all = await miniFaaf.judge(task, ctx)
        return all.slice(0, 1)
      },
    }
    const { ws, datasetId } = makeWorkspace(dir(), 2, 3)
    const engine = engineFor(ws, { registry: { judges: { forgetful }, generators: {}, improver: null } })
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'forgetful', cache: false }))
    const summary = await engine.start(runId)
    expect(summary).toMatchObject({ verdicts: 2, na: 4 })
    const na = verdictRows(ws, runId).filter((r) => r.status === 'na')
    expect(na.map((r) => JSON.parse(r.detail).problem)).toEqual(Array(4).fill(MISSING_VERDICT))
    ws.close()
  })

  it('accounts tokens and money from the price table, and reports progress to the end', async () => {
    fake.setScript(answerAll('true'))
    const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
    saveModel(ws.db, {
      provider: 'openai',
      model: 'gpt-priced',
      baseUrl: fake.openaiUrl,
      capabilities: DEFAULT_CAPABILITIES.openai,
      priceInputPerMTok: 2,
      priceOutputPerMTok: 8,
    })
    const events: RunProgress[] = []
    const engine = engineFor(ws, { onProgress: (p) => events.push(p) })
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { model: 'gpt-priced', cache: false }))
    const s = await engine.start(runId)
    expect(s.prompt_tokens).toBeGreaterThan(0)
    expect(s.cost).toBeCloseTo((s.prompt_tokens * 2 + s.completion_tokens * 8) / 1e6, 12)
    expect(events.at(-1)).toMatchObject({ runId, status: 'done', done: 3, total: 3 })
    expect(events.at(-1)?.cost).toBeCloseTo(s.cost, 12)
    ws.close()
  })

  it('pauses, then resumes without repeating a finished call', async () => {
    fake.setScript(answerAll('true'))
    fake.setLatency(40)
    const { ws, datasetId } = makeWorkspace(dir(), 12, 2)
    const engine = engineFor(ws)
    const before = fake.calls()
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { concurrency: 1, cache: false }))
    const running = engine.start(runId)
    while (fake.calls() - before < 3) await new Promise((r) => setTimeout(r, 10))
    engine.pause(runId)
    expect((await running).status).toBe('paused')
    const resumed = await engine.start(runId)
    fake.setLatency(0)
    expect(resumed).toMatchObject({ status: 'done', verdicts: 24 })
    const keys = ws.db.prepare('SELECT COUNT(*) AS n FROM run_calls WHERE run_id = ?').get(runId) as {
      n: number
    }
    // The call in flight at the pause was abandoned, not finished, so it is the only one asked twice.
    expect(fake.calls() - before).toBeLessThanOrEqual(keys.n + 1)
    expect(keys.n).toBe(12)
    ws.close()
  })

  it('cancels a run for good', async () => {
    fake.setLatency(40)
    const { ws, datasetId } = makeWorkspace(dir(), 6, 1)
    const engine = engineFor(ws)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { concurrency: 1, cache: false }))
    const running = engine.start(runId)
    engine.cancel(runId)
    expect((await running).status).toBe('cancelled')
    fake.setLatency(0)
    expect(() => engine.start(runId)).toThrow(/cancelled/)
    ws.close()
  })

  it('never writes the API key to the workspace, its WAL, logs or an export with raw records', async () => {
    fake.setScript((req, n) => (n % 3 === 0 ? { kind: 'status', status: 500 } : answerAll('true')(req, n)))
    const folder = dir()
    const { ws, datasetId } = makeWorkspace(folder, 6, 2)
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { cache: true }))
    await engineFor(ws).start(runId)
    const anthropicRun = oneRun(ws, runRequest(datasetId, fake.anthropicUrl, { provider: 'anthropic' }))
    await engineFor(ws).start(anthropicRun)
    const out = join(folder, 'verdicts.jsonl')
    await exportVerdicts(ws, { runId, out, raw: true })
    const files = readdirSync(folder).map((f) => join(folder, f))
    expect(files.some((f) => f.endsWith('-wal'))).toBe(true)
    const needle = Buffer.from(TEST_KEY)
    for (const f of files) expect(readFileSync(f).includes(needle), f).toBe(false)
    // The key did reach the server, so the scan above looked for something real.
    expect(fake.requests.at(-1)?.credential).toBe(TEST_KEY)
    expect(readFileSync(out, 'utf8')).toContain('"wire"')
    ws.close()
  })
})
