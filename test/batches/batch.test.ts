import Anthropic from '@anthropic-ai/sdk'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { createRuns, type RunRequest } from '../../src/main/runs/create'
import { getRun, runSummary, setRunStatus } from '../../src/main/runs/repo'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace, TEST_KEY } from '../runs/helpers'
import { batchEngine, priceModels } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.batches.plan = {}
  fake.batches.onEvent = null
  fake.setScript(answerAll('true'))
})

type Provider = 'openai' | 'anthropic'
const url = (p: Provider) => (p === 'openai' ? fake.openaiUrl : fake.anthropicUrl)
const model = (p: Provider) => (p === 'openai' ? 'gpt-fake' : 'claude-fake')

function request(datasetId: number, p: Provider, over: Partial<RunRequest> = {}): RunRequest {
  return {
    datasetId,
    provider: p,
    model: model(p),
    baseUrl: url(p),
    method: 'faaf-tf',
    concurrency: 4,
    timeoutMs: 5_000,
    maxAttempts: 3,
    backoffMs: 1,
    ...over,
  }
}

const run1 = (ws: Workspace, r: RunRequest) => createRuns(ws.db, r)[0] as number

function verdicts(ws: Workspace, runId: number) {
  return ws.db
    .prepare(
      'SELECT target_id, status, verdict, citation, detail FROM verdicts WHERE run_id = ? ORDER BY target_id',
    )
    .all(runId)
}

function calls(ws: Workspace, runId: number) {
  return ws.db
    .prepare(
      // A batch call's record is kept once, with the request it went out as (migration 0130).
      `SELECT c.call_key, c.status, COALESCE(c.request, r.record) AS request, c.request IS NULL AS by_reference,
         c.attempts, c.via_batch, c.prompt_tokens, c.completion_tokens, c.cost
       FROM run_calls c LEFT JOIN run_batch_request_records r ON r.request_id = c.batch_request_id
       WHERE c.run_id = ? ORDER BY c.call_key`,
    )
    .all(runId) as {
    call_key: string
    status: string
    request: string
    by_reference: number
    attempts: number
    via_batch: number
    prompt_tokens: number
    completion_tokens: number
    cost: number
  }[]
}

/** Bodies the fake received in more than one created batch (a request submitted twice). */
function submittedTwice(from: number): number {
  const seen = new Map<string, number>()
  for (const s of fake.batches.submissions.slice(from))
    for (const b of s.bodies) seen.set(JSON.stringify(b), (seen.get(JSON.stringify(b)) ?? 0) + 1)
  return [...seen.values()].filter((n) => n > 1).length
}

describe.each(['openai', 'anthropic'] as const)('batch mode on %s', (p) => {
  it('gives the verdicts of a synchronous run, from the same request bodies, at half the cost', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 4, 3)
    priceModels(ws, { openai: fake.openaiUrl, anthropic: fake.anthropicUrl })
    const syncRun = run1(ws, request(datasetId, p, { cache: false }))
    await batchEngine(ws).start(syncRun)
    const before = fake.batches.submissions.length
    const batchRun = run1(ws, request(datasetId, p, { cache: false, mode: 'batch' }))
    const summary = await batchEngine(ws).start(batchRun)
    expect(summary).toMatchObject({ status: 'done', verdicts: 12, na: 0, errors: 0, mode: 'batch' })
    expect(verdicts(ws, batchRun)).toEqual(verdicts(ws, syncRun))

    // Every custom_id the provider saw maps back to the call whose body it carried.
    const subs = fake.batches.submissions.slice(before)
    expect(subs).toHaveLength(1)
    const byCustomId = new Map(
      (
        ws.db
          .prepare('SELECT custom_id, call_key FROM run_batch_requests WHERE run_id = ?')
          .all(batchRun) as {
          custom_id: string
          call_key: string
        }[]
      ).map((r) => [r.custom_id, r.call_key]),
    )
    const syncCalls = new Map(calls(ws, syncRun).map((c) => [c.call_key, c]))
    subs[0]!.customIds.forEach((customId, i) => {
      const key = byCustomId.get(customId)
      expect(key).toMatch(/^faaf:\d+:0$/)
      // Byte for byte what the synchronous run sent for that same call.
      const syncWire = (JSON.parse(syncCalls.get(key!)!.request) as { wire: unknown }).wire
      expect(JSON.stringify(subs[0]!.bodies[i])).toBe(JSON.stringify(syncWire))
    })

    const b = calls(ws, batchRun)
    const s = calls(ws, syncRun)
    expect(b.every((c) => c.via_batch === 1 && c.by_reference === 1)).toBe(true)
    // The stored call records (request and wire body) are the synchronous run's, text for text.
    expect(b.map((c) => [c.call_key, c.request])).toEqual(s.map((c) => [c.call_key, c.request]))
    expect(b.map((c) => [c.call_key, c.prompt_tokens, c.completion_tokens])).toEqual(
      s.map((c) => [c.call_key, c.prompt_tokens, c.completion_tokens]),
    )
    expect(summary.cost).toBeGreaterThan(0)
    expect(summary.cost).toBeCloseTo(runSummary(ws.db, syncRun).cost * 0.5, 10)
    // The key authenticates the upload; it is never inside a batch file.
    for (const content of fake.batches.files.values()) expect(content).not.toContain(TEST_KEY)
    ws.close()
  })

  it('judges a unit added while its batch is out in the same drive, in a batch of its own', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
    fake.setScript((req, i) => (req.schema ? answerAll('true')(req, i) : { kind: 'text', text: 'True' }))
    const item = ws.db.prepare("SELECT id FROM items WHERE ext_id = 'q1'").pluck().get() as number
    let added: number | null = null
    fake.batches.onEvent = (e) => {
      if (e.kind === 'create' && added === null)
        added = ws.content.insertUnit(item, { kind: 'fact', text: 'A fact added meanwhile.' })
    }
    const mark = fake.batches.submissions.length
    const runId = run1(ws, request(datasetId, p, { cache: false, mode: 'batch', method: 'prompt-tf' }))
    const s = await batchEngine(ws).start(runId)
    expect(s).toMatchObject({ status: 'done', verdicts: 7, na: 0, errors: 0 })
    expect(fake.batches.submissions.slice(mark).map((b) => b.bodies.length)).toEqual([6, 1])
    const judged = ws.db
      .prepare(
        'SELECT v.status FROM verdicts v JOIN targets t ON t.id = v.target_id WHERE v.run_id = ? AND t.unit_id = ?',
      )
      .pluck()
      .all(runId, added)
    expect(judged).toEqual(['ok'])
    expect(submittedTwice(mark)).toBe(0)
    ws.close()
  })

  it('splits by the provider limits and never submits a call twice', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 7, 2)
    const before = fake.batches.submissions.length
    const runId = run1(ws, request(datasetId, p, { cache: false, mode: 'batch' }))
    await batchEngine(ws, { maxRequests: 3, maxBytes: 10_000_000 }).start(runId)
    const subs = fake.batches.submissions.slice(before)
    expect(subs.map((s) => s.customIds.length)).toEqual([3, 3, 1])
    expect(submittedTwice(before)).toBe(0)
    expect(runSummary(ws.db, runId)).toMatchObject({ status: 'done', verdicts: 14 })

    // A byte limit that holds two lines at most.
    const one = Buffer.byteLength(JSON.stringify(subs[0]!.bodies[0])) + 200
    const again = run1(ws, request(datasetId, p, { cache: false, mode: 'batch' }))
    const mark = fake.batches.submissions.length
    await batchEngine(ws, { maxRequests: 100, maxBytes: one * 2 + 2 }).start(again)
    expect(fake.batches.submissions.slice(mark).every((s) => s.customIds.length <= 2)).toBe(true)
    expect(runSummary(ws.db, again)).toMatchObject({ status: 'done', verdicts: 14 })
    ws.close()
  })

  it('an identical re-run is answered from the response cache and uploads nothing', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
    const first = run1(ws, request(datasetId, p, { mode: 'batch' }))
    await batchEngine(ws).start(first)
    const mark = fake.batches.submissions.length
    const uploads = fake.batches.log.filter((e) => e.kind === 'upload').length
    const second = run1(ws, request(datasetId, p, { mode: 'batch' }))
    expect(await batchEngine(ws).start(second)).toMatchObject({
      status: 'done',
      verdicts: 6,
      cached: 3,
      calls: 0,
    })
    expect(fake.batches.submissions.length).toBe(mark)
    expect(fake.batches.log.filter((e) => e.kind === 'upload').length).toBe(uploads)
    ws.close()
  })

  it('classifies per-request failures as a synchronous run does: a 500 is tried again, a 400 fails its call', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
    let round = 0
    fake.batches.onEvent = (e) => {
      if (e.kind === 'create') round++
    }
    // First batch: line 0 is refused (400), line 1 has a server error (500) that passes next time.
    fake.batches.plan = { lineStatus: (_id, i) => (round === 1 ? ([400, 500][i] ?? null) : null) }
    const mark = fake.batches.submissions.length
    const runId = run1(ws, request(datasetId, p, { cache: false, mode: 'batch' }))
    const s = await batchEngine(ws).start(runId)
    expect(s).toMatchObject({ status: 'done', verdicts: 4, errors: 2 })
    expect(round).toBe(2)
    const errs = ws.db
      .prepare("SELECT error FROM run_calls WHERE run_id = ? AND status = 'error'")
      .all(runId) as {
      error: string
    }[]
    expect(errs).toHaveLength(1)
    expect(errs[0]!.error).toMatch(/^HTTP 400: fake line status 400 \(in a batch, after 1 attempt\)$/)
    // The retried request went out again on purpose (the synchronous engine retries it too).
    expect(submittedTwice(mark)).toBe(1)

    // Resumed after failing for some other reason (say, other requests expired), the failed call
    // goes out in a new batch; its call row is brought up to date (as a synchronous retry would)
    // and names the request that answered it.
    setRunStatus(ws.db, runId, 'failed')
    const again = await batchEngine(ws).start(runId)
    expect(again).toMatchObject({ status: 'done', verdicts: 6, errors: 0 })
    const retried = calls(ws, runId).filter((c) => c.attempts > 1)
    expect(retried).toHaveLength(1)
    expect(retried[0]).toMatchObject({ status: 'done', attempts: 2, by_reference: 1 })
    const lastRecord = ws.db
      .prepare(
        `SELECT b.record FROM run_batch_requests r JOIN run_batch_request_records b ON b.request_id = r.id
         WHERE r.run_id = ? AND r.call_key = ? ORDER BY r.id DESC LIMIT 1`,
      )
      .pluck()
      .get(runId, retried[0]!.call_key)
    expect(retried[0]!.request).toBe(lastRecord)
    ws.close()
  })

  it('an expired batch leaves its unfinished calls to resume, in a new batch or call by call', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 4, 2)
    fake.batches.plan = { end: 'expired' }
    const runId = run1(ws, request(datasetId, p, { cache: false, mode: 'batch' }))
    const mark = fake.batches.submissions.length
    const first = await batchEngine(ws).start(runId)
    expect(first.status).toBe('failed')
    expect(getRun(ws.db, runId).error).toMatch(
      /2 request\(s\) of batch \S+ \((expired|ended)\) ended without a result; judge resume/,
    )
    expect(first.verdicts).toBe(4)
    fake.batches.plan = {}
    const second = await batchEngine(ws).start(runId)
    expect(second).toMatchObject({ status: 'done', verdicts: 8, errors: 0 })
    const subs = fake.batches.submissions.slice(mark)
    expect(subs.map((s) => s.customIds.length)).toEqual([4, 2])
    // Only the two that expired went out again; the finished half was not repeated.
    const json = (b: unknown[]) => b.map((x) => JSON.stringify(x)).sort()
    expect(json(subs[1]!.bodies)).toEqual(json(subs[0]!.bodies.slice(2)))
    ws.close()
  })

  it('reads a results file again when it is cut mid-line, and survives a 429 on create', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 6, 2)
    fake.batches.plan = { cutResultsOnce: true, create429: 1 }
    const mark = fake.batches.submissions.length
    const runId = run1(ws, request(datasetId, p, { cache: false, mode: 'batch' }))
    expect(await batchEngine(ws).start(runId)).toMatchObject({
      status: 'done',
      verdicts: 12,
      errors: 0,
      na: 0,
    })
    expect(submittedTwice(mark)).toBe(0)
    ws.close()
  })
})

describe('a batch found after an interruption', () => {
  it("that turns out to be someone else's (Anthropic batches carry no tag) is never read into the run; its requests go again", async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
    const runId = run1(ws, request(datasetId, 'anthropic', { cache: false, mode: 'batch' }))
    let engine = batchEngine(ws)
    const foreign = new Anthropic({ apiKey: 'x', baseURL: fake.anthropicUrl, maxRetries: 0 })
    let interrupted = false
    fake.batches.onEvent = async (e) => {
      if (e.kind !== 'create-start' || interrupted) return undefined
      interrupted = true
      // Another process creates a batch of the same size just as this create is lost.
      await foreign.messages.batches.create({
        requests: [0, 1, 2].map((i) => ({
          custom_id: `other-${i}`,
          params: {
            model: 'claude-fake',
            max_tokens: 5,
            messages: [{ role: 'user', content: 'Say false.' }],
          },
        })),
      })
      engine.pause(runId)
      return 'drop'
    }
    fake.setScript((req, i) =>
      req.userText.includes('Say false.') ? { kind: 'text', text: 'false' } : answerAll('true')(req, i),
    )
    expect((await engine.start(runId)).status).toBe('paused')
    fake.batches.onEvent = null
    engine = batchEngine(ws)
    expect(await engine.start(runId)).toMatchObject({ status: 'done', verdicts: 6, na: 0, errors: 0 })
    const batches = ws.db
      .prepare('SELECT adopted, error FROM run_batches WHERE run_id = ? ORDER BY id')
      .all(runId)
    expect(batches).toEqual([
      {
        adopted: 1,
        error: 'found after an interruption but not this run’s batch; its requests were sent again',
      },
      { adopted: 0, error: null },
    ])
    ws.close()
  })
})
