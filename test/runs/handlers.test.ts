import { expect, it } from 'vitest'
import { LEASE_STALE_MS } from '../../src/main/runs/leaseRules'
import type { BatchStatusInfo, RunInfo } from '../../src/shared/contract/runs'
import { testApps } from '../helpers/app'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { newestRunOnce, savedWorkspace } from './cliHelpers'
import { foreignLease, makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()
const fake = fakeLlmForFile()
const openApp = testApps()

it('sets up a judge, edits a template, previews, runs with live progress and lists the run', async () => {
  const { file, datasetId } = savedWorkspace(dir(), 3, 2)
  const { ctx: app, call, value } = openApp(file)
  const progress: { status: string; done: number; total: number }[] = []
  app.events.subscribe((name, payload) => {
    if (name === 'runs.progress') progress.push(payload as (typeof progress)[number])
  })

  const keys = await value<{ providers: { provider: string; hasKey: boolean }[] }>('judges.keys', {})
  expect(keys.providers.find((p) => p.provider === 'openai')?.hasKey).toBe(true)
  const refused = await call('judges.setKey', { provider: 'openai', key: 'x' })
  expect(refused.ok).toBe(false)

  const templates = await value<{ name: string; version: number; user: string }[]>('judges.templates', {})
  const faaf = templates.find((t) => t.name === 'faaf')!
  const edited = await value<{ version: number }>('judges.saveTemplate', {
    name: 'faaf',
    user: `${faaf.user}\nBe careful.`,
  })
  expect(edited.version).toBe(faaf.version + 1)
  const bad = await call('judges.saveTemplate', { name: 'faaf', user: 'Judge {{nonsense}}' })
  expect(bad.ok).toBe(false)

  const config = await value<{ id: number }>('judges.saveConfig', {
    name: 'faaf local',
    provider: 'openai',
    model: 'gpt-fake',
    baseUrl: fake().openaiUrl,
    method: 'faaf-tf',
    settings: { concurrency: 2 },
  })
  const before = fake().calls()
  const preview = await value<{ calls: { wire: { messages: { content: string }[] } }[] }>('judges.preview', {
    datasetId,
    configId: config.id,
  })
  expect(preview.calls[0]?.wire.messages.at(-1)?.content).toContain('Be careful.')
  expect(fake().calls()).toBe(before)

  // A variant the dataset lacks is refused before any run exists (it would judge nothing, "done").
  const runsBefore = app.workspace.db.prepare('SELECT COUNT(*) AS n FROM runs').get()
  const noVariant = await call('judges.start', {
    datasetId,
    configId: config.id,
    slice: { variants: ['nope'] },
  })
  expect(noVariant).toMatchObject({
    ok: false,
    error: { code: 'bad_input', message: expect.stringContaining('no variant “nope”') },
  })
  expect(app.workspace.db.prepare('SELECT COUNT(*) AS n FROM runs').get()).toEqual(runsBefore)

  const { runIds } = await value<{ runIds: number[] }>('judges.start', {
    datasetId,
    configId: config.id,
  })
  const run = await newestRunOnce(value, datasetId, (r) => r?.status === 'done' && !r.active)
  expect(run).toMatchObject({ id: runIds[0], status: 'done', calls: 3, verdicts: 6, total: 3 })
  expect(run?.templates.faaf).toBe(edited.version)
  expect(progress.at(-1)).toMatchObject({ status: 'done', done: 3, total: 3 })
})

it('refuses to resume or pause a run another process drives, shows who in the runs list, and takes over once it is silent', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 1)
  const runId = oneRun(ws, runRequest(datasetId, fake().openaiUrl, { method: 'faaf-tf' }))
  foreignLease(ws, runId, 1_000)
  const { call, value } = openApp(ws.file)
  const listed = async () =>
    (await value<RunInfo[]>('judges.runs', { datasetId })).find((r) => r.id === runId)!

  expect((await listed()).heldBy).toMatchObject({ driver: 'cli', pid: 4242, host: 'other-host' })
  expect((await listed()).heldBy?.message).toMatch(
    /^run \d+ is being driven by the CLI, pid 4242 on host other-host/,
  )
  const before = fake().calls()
  for (const name of ['judges.resume', 'judges.pause', 'judges.cancel']) {
    const refused = await call(name, { runId })
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } })
    if (!refused.ok) expect(refused.error.message).toContain('pid 4242 on host other-host')
  }
  expect(fake().calls()).toBe(before)
  expect((await listed()).status).toBe('queued')

  foreignLease(ws, runId, LEASE_STALE_MS + 1_000)
  expect((await listed()).heldBy).toBeNull()
  await value('judges.resume', { runId })
  const deadline = Date.now() + 20_000
  let run = await listed()
  while (run.status !== 'done' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20))
    run = await listed()
  }
  expect(run).toMatchObject({ status: 'done', verdicts: 2, heldBy: null })
  // Finished, the run is driven by nobody: no leftover note makes it look taken over.
  expect(run.takeover).toBeNull()
  expect((await value<BatchStatusInfo>('judges.batches', { runId })).takeover).toBeNull()
  // The log keeps it, and a run under way again shows it, in the runs list and its status alike.
  ws.db.prepare("UPDATE runs SET status = 'paused' WHERE id = ?").run(runId)
  expect((await listed()).takeover).toMatch(/took over run \d+ from the CLI, pid 4242 on host other-host/)
  expect((await value<BatchStatusInfo>('judges.batches', { runId })).takeover).toBe((await listed()).takeover)
  ws.close()
})
