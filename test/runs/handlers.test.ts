import { expect, it } from 'vitest'
import { AppContext } from '../../src/main/app/context'
import { dispatch } from '../../src/main/rpc/dispatch'
import { buildHandlers } from '../../src/main/rpc/handlers'
import type { RunInfo } from '../../src/shared/contract/judges'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace } from './helpers'

const dir = tmpDirs()
const fake = fakeLlmForFile()

async function ok<T>(handlers: ReturnType<typeof buildHandlers>, name: string, input: unknown): Promise<T> {
  const r = await dispatch(handlers, name, input)
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`)
  return r.value as T
}

it('sets up a judge, edits a template, previews, runs with live progress and lists the run', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 3, 2)
  const file = ws.file
  ws.close()
  const app = new AppContext(file)
  const handlers = buildHandlers(app)
  const progress: { status: string; done: number; total: number }[] = []
  app.events.subscribe((name, payload) => {
    if (name === 'runs.progress') progress.push(payload as (typeof progress)[number])
  })

  const keys = await ok<{ providers: { provider: string; hasKey: boolean }[] }>(handlers, 'judges.keys', {})
  expect(keys.providers.find((p) => p.provider === 'openai')?.hasKey).toBe(true)
  const refused = await dispatch(handlers, 'judges.setKey', { provider: 'openai', key: 'x' })
  expect(refused.ok).toBe(false)

  const templates = await ok<{ name: string; version: number; user: string }[]>(
    handlers,
    'judges.templates',
    {},
  )
  const faaf = templates.find((t) => t.name === 'faaf')!
  const edited = await ok<{ version: number }>(handlers, 'judges.saveTemplate', {
    name: 'faaf',
    user: `${faaf.user}\nBe careful.`,
  })
  expect(edited.version).toBe(faaf.version + 1)
  const bad = await dispatch(handlers, 'judges.saveTemplate', { name: 'faaf', user: 'Judge {{nonsense}}' })
  expect(bad.ok).toBe(false)

  const config = await ok<{ id: number }>(handlers, 'judges.saveConfig', {
    name: 'faaf local',
    provider: 'openai',
    model: 'gpt-fake',
    baseUrl: fake().openaiUrl,
    method: 'faaf-tf',
    settings: { concurrency: 2 },
  })
  const before = fake().calls()
  const preview = await ok<{ calls: { wire: { messages: { content: string }[] } }[] }>(
    handlers,
    'judges.preview',
    {
      datasetId,
      configId: config.id,
    },
  )
  expect(preview.calls[0]?.wire.messages.at(-1)?.content).toContain('Be careful.')
  expect(fake().calls()).toBe(before)

  const { runIds } = await ok<{ runIds: number[] }>(handlers, 'judges.start', {
    datasetId,
    configId: config.id,
  })
  const deadline = Date.now() + 20_000
  let runs: RunInfo[] = []
  while (Date.now() < deadline) {
    runs = await ok<RunInfo[]>(handlers, 'judges.runs', { datasetId })
    if (runs[0]?.status === 'done' && !runs[0].active) break
    await new Promise((r) => setTimeout(r, 20))
  }
  expect(runs[0]).toMatchObject({ id: runIds[0], status: 'done', calls: 3, verdicts: 6, total: 3 })
  expect(runs[0]?.templates.faaf).toBe(edited.version)
  expect(progress.at(-1)).toMatchObject({ status: 'done', done: 3, total: 3 })
  app.close()
})
