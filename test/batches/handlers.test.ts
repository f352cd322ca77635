import { afterEach, expect, it } from 'vitest'
import { createRuns } from '../../src/main/runs/create'
import { setRunStatus } from '../../src/main/runs/repo'
import type { BatchStatusInfo, RunInfo } from '../../src/shared/contract/runs'
import { testApps } from '../helpers/app'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { newestRunOnce, savedWorkspace } from '../runs/cliHelpers'
import { makeWorkspace } from '../runs/helpers'
import { batchEngine } from './helpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])
const openApp = testApps()
afterEach(() => {
  fake().batches.plan = {}
  fake().batches.onEvent = null
})

const untilDone = async (value: ReturnType<typeof openApp>['value'], datasetId: number): Promise<RunInfo> =>
  (await newestRunOnce(value, datasetId, (r) => r?.status === 'done' && !r.active))!

it('the Judges view starts a batch run, lists its provider batch, and shows the cost at batch price', async () => {
  // Each batch ends on its first status check, so the app's polling never has to wait.
  fake().batches.plan = { steps: 1 }
  const { file, datasetId } = savedWorkspace(dir(), 3, 2)
  const { value, call } = openApp(file)
  const config = await value<{ id: number }>('judges.saveConfig', {
    name: 'claude batch',
    provider: 'anthropic',
    model: 'claude-fake',
    baseUrl: fake().anthropicUrl,
    method: 'faaf-tfn',
    settings: {},
  })
  await value('judges.start', { datasetId, configId: config.id, mode: 'batch' })
  const run = await untilDone(value, datasetId)
  expect(run).toMatchObject({ status: 'done', mode: 'batch', verdicts: 6, calls: 3 })
  const status = await value<BatchStatusInfo>('judges.batches', { runId: run.id })
  expect(status.batches).toHaveLength(1)
  expect(status.batches[0]).toMatchObject({
    state: 'ingested',
    providerStatus: 'ended',
    requests: 3,
    succeeded: 3,
  })
  expect(status.batches[0]!.providerBatchId).toMatch(/^msgbatch_/)
  expect(status.waiting).toBe(0)

  const local = await value<{ id: number }>('judges.saveConfig', {
    name: 'local',
    provider: 'openai-compatible',
    model: 'm',
    baseUrl: fake().openaiUrl,
    method: 'faaf-tf',
    settings: {},
  })
  const refused = await call('judges.start', { datasetId, configId: local.id, mode: 'batch' })
  expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } })
  expect(refused.ok ? '' : refused.error.message).toMatch(/Batch mode is for openai and anthropic/)
})

it('a batch run left running by a process that died is picked up when the app opens the workspace', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 2)
  const [runId] = createRuns(ws.db, {
    datasetId,
    provider: 'openai',
    model: 'gpt-fake',
    baseUrl: fake().openaiUrl,
    method: 'faaf-tf',
    mode: 'batch',
    backoffMs: 1,
  })
  // The first driver stops once the provider has the batch (as a quit app would)...
  fake().batches.plan = { steps: 1_000 }
  const engine = batchEngine(ws)
  fake().batches.onEvent = (e) => {
    if (e.kind === 'retrieve') engine.pause(runId!)
  }
  await engine.start(runId!)
  // ...and, like a killed process, it leaves the run marked running.
  setRunStatus(ws.db, runId!, 'running')
  const file = ws.file
  ws.close()
  fake().batches.onEvent = null
  fake().batches.plan = { steps: 1 }
  const mark = fake().batches.submissions.length

  const { value } = openApp(file)
  const run = await untilDone(value, datasetId)
  expect(run).toMatchObject({ id: runId, status: 'done', verdicts: 4 })
  expect(fake().batches.submissions.length).toBe(mark)
})
