import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { batchStatus } from '../../src/main/batches/status'
import { saveTemplate } from '../../src/main/prompts/store'
import { callCost } from '../../src/main/providers/models'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { createRuns } from '../../src/main/runs/create'
import { ROUGH_GUESS } from '../../src/main/runs/expected'
import { previewRun } from '../../src/main/runs/preview'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { addEveryUnitKind, makeWorkspace } from '../runs/helpers'
import { batchEngine, priceModels } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('consistent') })
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.batches.plan = {}
  fake.batches.onEvent = null
  fake.setScript(answerAll('consistent'))
})

const openai = () => ({
  provider: 'openai' as const,
  model: 'gpt-fake',
  baseUrl: fake.openaiUrl,
  cache: false,
  backoffMs: 1,
})

it('a batch run paused with calls still to make expects them at the batch price of the calls it has made', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 4, 2)
  priceModels(ws, { openai: fake.openaiUrl, anthropic: fake.anthropicUrl })
  const [run] = createRuns(ws.db, { datasetId, ...openai(), method: 'faaf-tf', mode: 'batch' })
  expect((await batchEngine(ws).start(run!)).status).toBe('done')
  const done = await batchStatus(ws.db, run!)
  expect(done.cost).toBeGreaterThan(0)
  expect(done).toMatchObject({ expectedCost: done.cost, expectedBasis: 'no calls left: the cost so far' })

  // As if it had stopped half way: 4 calls answered of 8 planned, none waiting in a batch.
  ws.db.prepare("UPDATE runs SET status = 'paused', planned_calls = 8 WHERE id = ?").run(run)
  const half = await batchStatus(ws.db, run!)
  expect(half.waiting).toBe(0)
  // Each call left costs what an answered one cost on average, batch discount and all.
  expect(half.expectedCost).toBeCloseTo(2 * half.cost, 10)
  expect(half.expectedBasis).toBe(
    '4 calls left of 8 planned calls, each at the average tokens of the 4 calls answered so far, at the batch price',
  )
  ws.close()
})

it('a paused call-by-call run that has made no call yet is expected from its planned calls and the price table', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
  priceModels(ws, { openai: fake.openaiUrl, anthropic: fake.anthropicUrl })
  const request = { datasetId, ...openai(), method: 'faaf-tf' }
  const [run] = createRuns(ws.db, request)
  ws.db.prepare("UPDATE runs SET status = 'paused', planned_calls = 3 WHERE id = ?").run(run)
  const st = await batchStatus(ws.db, run!)
  expect(st.cost).toBe(0)
  // The prompt of the run's first request (what `judge preview` shows), about 4 bytes a token.
  const [first] = (await previewRun(ws.db, request, BUILTIN_REGISTRY)).calls
  const prompt = Math.round(Buffer.byteLength(JSON.stringify(first!.wire)) / 4)
  expect(st.expectedCost).toBeCloseTo(
    3 * callCost({ input: 2.5, output: 10 }, { promptTokens: prompt, completionTokens: 0 }),
    10,
  )
  expect(st.expectedBasis).toBe(
    `3 calls left of 3 planned calls, each at about ${prompt} prompt tokens at the run's prices; ${ROUGH_GUESS}`,
  )
  ws.close()
})

it('a batch run with its batch out and no answer yet expects the prompt tokens its requests will be charged, and says the guess may go either way', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 4, 2)
  priceModels(ws, { openai: fake.openaiUrl, anthropic: fake.anthropicUrl })
  const [run] = createRuns(ws.db, { datasetId, ...openai(), method: 'faaf-tf', mode: 'batch' })
  // The batch never ends by itself: the first status check pauses the run with it still out.
  fake.batches.plan = { steps: 1_000 }
  const engine = batchEngine(ws)
  fake.batches.onEvent = (e) => {
    if (e.kind === 'retrieve') engine.pause(run!)
    return undefined
  }
  const before = fake.batches.submissions.length
  expect((await engine.start(run!)).status).toBe('paused')
  const [sub] = fake.batches.submissions.slice(before)
  const st = await batchStatus(ws.db, run!)
  expect(st.waiting).toBe(4)
  // The fake charges a token per 4 characters of the body each request sends, as a call by call
  // run's estimate reckons: the estimate is that, not the stored record's (request and body both).
  const charged = sub!.bodies.map((b) => Math.ceil(JSON.stringify(b).length / 4))
  const perCall = Number(/each at about (\d+) prompt tokens/.exec(st.expectedBasis)?.[1])
  const mean = charged.reduce((a, b) => a + b, 0) / charged.length
  expect(Math.abs(perCall - mean)).toBeLessThanOrEqual(1)
  expect(st.expectedBasis).toBe(
    `4 calls left of 4 planned calls, each at about ${perCall} prompt tokens at the batch price; ${ROUGH_GUESS}`,
  )
  expect(st.expectedBasis).not.toMatch(/lower|higher than/)
  ws.close()
})

it('a run whose model has no price says its calls left are not priced', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 2)
  const [run] = createRuns(ws.db, { datasetId, ...openai(), method: 'faaf-tf' })
  ws.db.prepare("UPDATE runs SET status = 'paused', planned_calls = 2 WHERE id = ?").run(run)
  expect(await batchStatus(ws.db, run!)).toMatchObject({
    expectedCost: null,
    expectedBasis: '2 calls left of 2 planned calls, not priced: the model has no price entered',
  })
  ws.close()
})

it('a template edited while a batch is out changes none of the run’s calls, follow-ups included, and status says which version it used', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 0)
  addEveryUnitKind(ws)
  const [run] = createRuns(ws.db, {
    datasetId,
    ...openai(),
    method: 'dcr',
    settings: { amcLlm: true },
    mode: 'batch',
  })
  const before = fake.batches.submissions.length
  let edited = false
  fake.batches.onEvent = (e) => {
    // The first batch (DCE) is out; AMC's follow-ups are built only after its answers come back.
    if (e.kind === 'create' && !edited) {
      edited = true
      saveTemplate(ws.db, { name: 'dcr.amc', user: 'EDITED WORDING {{reasons}} by {{answer_by}}.' })
    }
    return undefined
  }
  expect((await batchEngine(ws).start(run!)).status).toBe('done')
  const subs = fake.batches.submissions.slice(before)
  expect(subs.length).toBe(2)
  const bodies = JSON.stringify(subs.flatMap((s) => s.bodies))
  expect(bodies).toContain('record_marks')
  expect(bodies).not.toContain('EDITED WORDING')
  expect((await batchStatus(ws.db, run!)).templates).toBe(
    'every call uses dcr.dce v1, dcr.amc v1, as when the run was created; edited since (dcr.amc is now v2), which applies to new runs only',
  )
  ws.close()
})
