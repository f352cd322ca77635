import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createRuns } from '../../src/main/runs/create'
import { batchCountWords } from '../../src/shared/batchWords'
import { costPoints } from '../../src/shared/charts/costError'
import type { DatasetMetrics } from '../../src/shared/contract/metrics'
import type { BatchStatusInfo, RunInfo } from '../../src/shared/contract/runs'
import { toJsonReport } from '../../src/shared/metricsJson'
import { runCostParts } from '../../src/shared/runNames'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from '../runs/helpers'
import { batchEngine, priceModels } from './helpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])
const openApp = testApps()
afterEach(() => {
  fake().batches.plan = {}
  fake().batches.onEvent = null
})

type Provider = 'openai' | 'anthropic'
type App = ReturnType<typeof openApp>

async function untilStopped(app: App, datasetId: number): Promise<RunInfo> {
  for (;;) {
    const runs = await app.value<RunInfo[]>('judges.runs', { datasetId })
    if (runs[0] && !runs[0].active && runs[0].status !== 'running') return runs[0]
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A batch run paused while its batch is still out at the provider; the app opened on it. */
async function pausedWithBatchOut(p: Provider, priced = false) {
  const { ws, datasetId } = makeWorkspace(dir(), 4, 2)
  if (priced) priceModels(ws, { openai: fake().openaiUrl, anthropic: fake().anthropicUrl })
  const [runId] = createRuns(ws.db, {
    datasetId,
    provider: p,
    model: p === 'openai' ? 'gpt-fake' : 'claude-fake',
    baseUrl: p === 'openai' ? fake().openaiUrl : fake().anthropicUrl,
    method: 'faaf-tf',
    concurrency: 4,
    timeoutMs: 5_000,
    maxAttempts: 3,
    backoffMs: 1,
    cache: false,
    mode: 'batch',
  }) as [number]
  // The batch never ends by itself: the first status check pauses the run with it still out.
  fake().batches.plan = { steps: 1_000 }
  const engine = batchEngine(ws)
  fake().batches.onEvent = (e) => {
    if (e.kind === 'retrieve') engine.pause(runId)
    return undefined
  }
  const mark = { subs: fake().batches.submissions.length, requests: fake().requests.length }
  expect((await engine.start(runId)).status).toBe('paused')
  fake().batches.onEvent = null
  const file = ws.file
  ws.close()
  return { app: openApp(file), file, runId, datasetId, mark }
}

it.each(['openai', 'anthropic'] as const)(
  'on %s, resuming a batch run call by call cancels its batch first and answers no request twice',
  async (p) => {
    const { app, runId, datasetId, mark } = await pausedWithBatchOut(p)
    const sub = fake().batches.submissions.slice(mark.subs)
    expect(sub).toHaveLength(1)
    const out = await app.value<{ ok: true; note?: string }>('judges.resume', {
      runId,
      mode: 'sync',
      batchPollMs: 1,
    })
    expect(out.note).toBe(
      `cancelled ${sub[0]!.batchId} with 4 requests waiting; whatever was answered before is kept, and the 4 requests left go call by call`,
    )
    expect(fake().batches.log).toContainEqual(
      expect.objectContaining({ kind: 'cancel', batchId: sub[0]!.batchId }),
    )
    const run = await untilStopped(app, datasetId)
    expect(run).toMatchObject({ status: 'done', verdicts: 8 })
    // The fake answers the first half of a cancelled batch: those two never go out again.
    const inBatch = sub[0]!.bodies.map((b) => JSON.stringify(b.messages))
    const answeredByBatch = inBatch.slice(0, 2)
    const direct = fake()
      .requests.slice(mark.requests)
      .map((r) => JSON.stringify(r.body.messages))
    expect(direct.sort()).toEqual(inBatch.slice(2).sort())
    expect(direct.filter((d) => answeredByBatch.includes(d))).toEqual([])
    const status = await app.value<{ waiting: number; batches: { state: string }[] }>('judges.batches', {
      runId,
    })
    expect(status.waiting).toBe(0)
    expect(status.batches.map((b) => b.state)).toEqual(['ingested'])
  },
)

it('refuses the switch, changing nothing, when the provider will not cancel the batch', async () => {
  const { app, runId, datasetId, mark } = await pausedWithBatchOut('openai')
  const batchId = fake().batches.submissions[mark.subs]!.batchId
  // The batch is gone at the provider's end (404 on cancel): nothing to stop, so nothing is sent.
  fake().batches.batches.delete(batchId)
  const r = await app.call('judges.resume', { runId, mode: 'sync' })
  expect(r.ok).toBe(false)
  expect(!r.ok && r.error.message).toMatch(
    new RegExp(`^Could not cancel run ${runId}'s open batch at the provider .*the run stays in batch mode`),
  )
  expect(fake().requests.length).toBe(mark.requests)
  const runs = await app.value<RunInfo[]>('judges.runs', { datasetId })
  expect(runs[0]).toMatchObject({ status: 'paused', mode: 'batch' })
})

it('judge resume --mode sync says which batch it cancelled before going call by call', async () => {
  const { file, runId, mark } = await pausedWithBatchOut('anthropic')
  const batchId = fake().batches.submissions[mark.subs]!.batchId
  const r = await cli([
    'judge',
    'resume',
    String(runId),
    '--mode',
    'sync',
    '--poll-ms',
    '1',
    '--workspace',
    file,
    '--json',
  ])
  expect(r.code, r.err).toBe(0)
  expect(r.err).toContain(`cancelled ${batchId} with 4 requests waiting`)
  expect(JSON.parse(r.out)).toMatchObject({ status: 'done', verdicts: 8 })
  expect(fake().requests.length - mark.requests).toBe(2)
})

it('a batch run finished call by call reads "partly at the batch price" everywhere, and its cancelled requests answered since are not failed', async () => {
  const { app, file, runId, datasetId } = await pausedWithBatchOut('openai', true)
  await app.value('judges.resume', { runId, mode: 'sync', batchPollMs: 1 })
  const run = await untilStopped(app, datasetId)
  // The fake answers half of a cancelled batch; the other two went call by call at full price.
  expect(run).toMatchObject({ status: 'done', mode: 'sync', calls: 4, batchCalls: 2 })
  const partly = 'partly at the batch price: 2 of 4 calls'
  // The Judges view's cost cell.
  expect(runCostParts(run).marks).toEqual([partly])

  // Its batch row, there and in `judge status`: 4 answered, none failed.
  const status = await app.value<BatchStatusInfo>('judges.batches', { runId })
  expect(status.batches.map(batchCountWords)).toEqual([
    '4/4 answered (2 in the batch, 2 call by call after it)',
  ])
  expect(status.batches[0]).toMatchObject({ errored: 0, answeredSince: 2 })

  // Compare: its name says how it was priced, whatever mode it went in last: not "batch" for
  // the whole run, nor nothing; the same words beside its cost.
  const m = await app.value<DatasetMetrics>('metrics.compare', { datasetId, replicates: 0 })
  const judge = m.judges.find((j) => j.runId === runId)!
  expect(judge).toMatchObject({ calls: 4, batchCalls: 2, mode: 'sync' })
  expect(judge.label).toMatch(/ · partly batch: 2 of 4 calls \(#\d+\)$/)
  // The cost chart (Compare's and the report's) draws it by that name, with no second mark of
  // the batch; given an error rate to place it by.
  const json = toJsonReport(m)
  const placed = {
    ...json,
    judges: json.judges.map((j) => (j.run === runId ? { ...j, error_rate: 0.25, cost_per_1000: 1 } : j)),
  }
  const label = costPoints(placed).find((p) => p.run === runId)?.label
  expect(label).toBe(judge.label)
  expect(label?.match(/batch/g)).toHaveLength(1)

  const cliStatus = await cli(['judge', 'status', String(runId), '--workspace', file])
  expect(cliStatus.code, cliStatus.err).toBe(0)
  expect(cliStatus.out).toContain('— 4/4 answered (2 in the batch, 2 call by call after it)')
  expect(cliStatus.out).not.toContain('failed')
  expect(cliStatus.out).toMatch(new RegExp(`cost so far \\d\\.\\d{4} \\(${partly}\\)`))
  const out = join(dir(), 'report.md')
  const report = await cli(['metrics', '--workspace', file, '--dataset', 'd', '--format', 'md', '--out', out])
  expect(report.code, report.err).toBe(0)
  expect(readFileSync(out, 'utf8')).toContain(partly)
})
