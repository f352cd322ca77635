import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { engineFor, makeWorkspace, oneRun, runRequest, verdictRows } from './helpers'

// A run's requests are built ahead and wait for their slot inside the client (SendHooks); these
// hold what that must not change: the concurrency the provider sees, the timeout of each request,
// and what the provider is told.
const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

describe.each(['openai', 'anthropic'] as const)('requests built ahead of their slot, %s', (provider) => {
  const url = () => (provider === 'openai' ? fake.openaiUrl : fake.anthropicUrl)

  it('never has more requests at the provider than the concurrency', async () => {
    fake.setLatency(20)
    const { ws, datasetId } = makeWorkspace(dir(), 24, 1)
    fake.takePeakInFlight()
    const before = fake.calls()
    const runId = oneRun(ws, runRequest(datasetId, url(), { provider, concurrency: 3, cache: false }))
    const s = await engineFor(ws).start(runId)
    expect(s.status).toBe('done')
    expect(fake.calls() - before).toBe(24)
    // Twice as many tasks as slots are in flight, so an ungated client would show far more.
    expect(fake.takePeakInFlight()).toBe(3)
    ws.close()
  })

  it('does not count the wait for a slot against the timeout', async () => {
    // One slot and four tasks in flight: the last one waits three replies (900 ms) for its slot,
    // longer than the timeout, before a reply that takes a third of it.
    fake.setLatency(300)
    const { ws, datasetId } = makeWorkspace(dir(), 6, 1)
    const before = fake.calls()
    const runId = oneRun(
      ws,
      runRequest(datasetId, url(), { provider, concurrency: 1, timeoutMs: 1_000, cache: false }),
    )
    const s = await engineFor(ws).start(runId)
    expect(s.status).toBe('done')
    expect(fake.calls() - before).toBe(6)
    const attempts = ws.db.prepare('SELECT attempts FROM run_calls WHERE run_id = ?').pluck().all(runId)
    expect(attempts).toEqual([1, 1, 1, 1, 1, 1])
    expect(verdictRows(ws, runId).every((r) => r.status === 'ok')).toBe(true)
    ws.close()
  })

  it('tells the provider the configured timeout', async () => {
    fake.setLatency(0)
    const { ws, datasetId } = makeWorkspace(dir(), 2, 1)
    const runId = oneRun(ws, runRequest(datasetId, url(), { provider, timeoutMs: 45_000, cache: false }))
    await engineFor(ws).start(runId)
    const last = fake.requests.at(-1)
    expect(last?.format).toBe(provider)
    expect(last?.headers?.['x-stainless-timeout']).toBe('45')
    ws.close()
  })
})
