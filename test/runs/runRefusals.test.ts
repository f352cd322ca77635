import { describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import { saveConfig } from '../../src/main/runs/configs'
import { createRuns } from '../../src/main/runs/create'
import { deleteUnit } from '../../src/main/units/edit'
import { writeVerdicts } from '../../src/main/verdicts/write'
import { REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { fakeLlmForFile } from '../helpers/fakeLlm'
import { tmpDirs } from '../helpers/tmp'
import { fakeOpenAi, judgeArgs, newestRunOnce, previewArgs, priceArgs, savedWorkspace } from './cliHelpers'
import { makeWorkspace } from './helpers'

const dir = tmpDirs()
const fake = fakeLlmForFile(['OPENAI_API_KEY'])
const openApp = testApps()

/** A RefChecker dataset: one triplet per answer, no facts. */
function tripletWorkspace(): string {
  const { ws } = makeWorkspace(dir(), 2, 0, REFCHECKER_SCHEMA)
  addTriplets(ws)
  const file = ws.file
  ws.close()
  return file
}

function addTriplets(ws: Workspace): void {
  const rows = ws.db.prepare('SELECT id, item_id FROM candidates').all() as { id: number; item_id: number }[]
  for (const c of rows)
    ws.content.insertUnit(c.item_id, {
      kind: 'triplet',
      text: 'answer | is | short',
      triplet: ['answer', 'is', 'short'],
      candidateId: c.id,
    })
}

const runCount = (app: ReturnType<typeof openApp>) =>
  (app.ctx.workspace.db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n

/** OpenAI's fake model, at a base URL a test names. */
const gptAt = (baseUrl?: string) => ({ provider: 'openai', model: 'gpt-fake', baseUrl })

describe('a method that does not fit the dataset’s units', () => {
  it('is refused by the CLI, naming the units it judges and those the dataset has; nothing is stored or sent', async () => {
    const file = tripletWorkspace()
    const before = fake().calls()
    const r = await cli(judgeArgs(file, fakeOpenAi(fake()), 'faaf-tf'))
    expect(r.code).toBe(1)
    expect(r.err).toContain(
      'faaf-tf judges facts, and this dataset has triplets only; no run was created. To run faaf-tf, make facts in the Units view or with `factlab units generate --method facts`',
    )
    const preview = await cli(previewArgs(file, gptAt(), 'faaf-tf'))
    expect(preview.code).toBe(1)
    expect(preview.err).toContain(
      'faaf-tf judges facts, and this dataset has triplets only; nothing to preview',
    )
    expect(fake().calls()).toBe(before)
    expect(runCount(openApp(file))).toBe(0)
  })

  it('is refused by the app’s own call, so the Judges view shows why and lists no empty run', async () => {
    const { file, datasetId } = savedWorkspace(dir(), 2, 2)
    const app = openApp(file)
    const config = await app.value<{ id: number }>('judges.saveConfig', {
      name: 'dcr',
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: fake().openaiUrl,
      method: 'dcr',
      settings: {},
    })
    const refused = await app.call('judges.start', { datasetId, configId: config.id })
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringContaining(
          'dcr judges sentences, and this dataset has facts only; no run was created',
        ),
      },
    })
    expect(runCount(app)).toBe(0)
    expect(await app.value('judges.runs', { datasetId })).toEqual([])
  })

  it('a run whose units went away after it was made fails saying so instead of ending "done 0/0", and offers nothing to improve', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 2, 0)
    const cands = ws.db.prepare('SELECT id, item_id FROM candidates').all() as {
      id: number
      item_id: number
    }[]
    for (const c of cands)
      ws.content.insertUnit(c.item_id, { kind: 'sentence', text: 'The answer is short.', candidateId: c.id })
    const [runId] = createRuns(ws.db, {
      datasetId,
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: fake().openaiUrl,
      method: 'dcr',
    })
    // Deleted while the run waits to start.
    for (const u of ws.db.prepare('SELECT id FROM units').pluck().all() as number[]) deleteUnit(ws.db, u)
    const file = ws.file
    ws.close()
    const app = openApp(file)
    await app.value('judges.resume', { runId })
    const run = await newestRunOnce(app.value, datasetId, (r) => r?.status === 'failed')
    expect(run).toMatchObject({ status: 'failed', verdicts: 0, total: 0 })
    expect(run?.error).toContain('dcr judges sentences, and this dataset has no units; nothing was judged')
    const improve = await app.call('judges.improve', { runId })
    expect(improve).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringContaining('has no DCR verdicts, so there is nothing to improve'),
      },
    })
    expect(runCount(app)).toBe(1)
  })
})

describe('improving a DCR run whose only gap is a sentence without a verdict', () => {
  it('is refused saying there is nothing to improve, and no run or variant is made', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 2, 0)
    const cands = ws.db.prepare('SELECT id, item_id FROM candidates ORDER BY id').all() as {
      id: number
      item_id: number
    }[]
    const targets = cands.map((c) => {
      const unit = ws.content.insertUnit(c.item_id, {
        kind: 'sentence',
        text: 'The answer.',
        candidateId: c.id,
      })
      return ws.db.prepare('SELECT id FROM targets WHERE unit_id = ?').pluck().get(unit) as number
    })
    const [runId] = createRuns(ws.db, {
      datasetId,
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: fake().openaiUrl,
      method: 'dcr',
    })
    writeVerdicts(
      ws.db,
      runId!,
      [
        { targetId: targets[0]!, status: 'ok', verdict: 'true' },
        { targetId: targets[1]!, status: 'na', verdict: null, problem: 'no decision for sentence 1' },
      ],
      null,
    )
    ws.db.prepare("UPDATE runs SET status = 'done' WHERE id = ?").run(runId)
    const file = ws.file
    ws.close()
    const app = openApp(file)
    expect(await app.call('judges.improve', { runId })).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: `Nothing to improve: run ${runId} found no sentence inconsistent (1 sentence has no verdict and is not rewritten), so no rewrite is made and no variant added`,
      },
    })
    expect(runCount(app)).toBe(1)
  })
})

describe('a base URL no call could reach', () => {
  it('is refused by the CLI before anything is stored', async () => {
    const { file } = savedWorkspace(dir(), 1, 1)
    for (const [url, why] of [
      ['not-a-url', 'The base URL "not-a-url" is not a URL'],
      ['ftp://127.0.0.1/v1', 'The base URL "ftp://127.0.0.1/v1" must start with http:// or https://'],
      ['localhost:11434', 'The base URL "localhost:11434" must start with http:// or https://'],
    ] as const) {
      const r = await cli(judgeArgs(file, gptAt(url), 'faaf-tf'))
      expect(r.code, url).toBe(2)
      expect(r.err).toContain(`--base-url: ${why}`)
      const price = await cli(priceArgs(file, gptAt(url), '--input', '1'))
      expect(price.code, url).toBe(2)
    }
    const app = openApp(file)
    expect(runCount(app)).toBe(0)
    expect(await app.value('judges.models', {})).toEqual([])
  })

  it('is refused by the app’s calls: saving such a config, and starting one saved before the check', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 1, 1)
    const old = saveConfig(ws.db, {
      name: 'typo',
      provider: 'openai-compatible',
      model: 'qwen',
      baseUrl: 'not-a-url',
      method: 'faaf-tf',
      settings: {},
    })
    const file = ws.file
    ws.close()
    const app = openApp(file)
    const saved = await app.call('judges.saveConfig', {
      name: 'again',
      provider: 'openai-compatible',
      model: 'qwen',
      baseUrl: 'not-a-url',
      method: 'faaf-tf',
      settings: {},
    })
    expect(saved).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('The base URL "not-a-url" is not a URL') },
    })
    const started = await app.call('judges.start', { datasetId, configId: old.id })
    expect(started).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('The base URL "not-a-url" is not a URL') },
    })
    expect(runCount(app)).toBe(0)
  })
})
