import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Workspace } from '../../src/main/app/workspace'
import type { ProviderName } from '../../src/main/providers/client'
import { saveModel } from '../../src/main/providers/models'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { BUILTIN_REGISTRY } from '../../src/main/runs/builtin'
import { JUDGE_METHODS } from '../../src/shared/domain'
import {
  FAAF_SCHEMA,
  holisticSchema,
  type LabelSchema,
  REFCHECKER_SCHEMA,
} from '../../src/shared/labelSchemas'
import { answerAll, type FakeServer, startFakeLlm, toolArgsFor } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { addEveryUnitKind, engineFor, makeWorkspace, oneRun, runRequest, verdictRows } from './helpers'

/** The product's methods end to end through the engine and both wire formats (plus JSON-in-text). */
const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: answerAll('true') })
})
afterAll(() => fake.close())

const ITEMS = 3
const FACTS = 6

// Each method on a dataset in its own words (judges/schemaFit.ts refuses some other pairings).
const NATIVE: Record<string, LabelSchema> = {
  refchecker: REFCHECKER_SCHEMA,
  'refchecker-batched': REFCHECKER_SCHEMA,
  holistic: holisticSchema(),
}

function fullWorkspace(method?: string): { ws: Workspace; datasetId: number } {
  const made = makeWorkspace(dir(), ITEMS, FACTS, NATIVE[method ?? ''] ?? FAAF_SCHEMA)
  addEveryUnitKind(made.ws)
  return made
}

const targetsOf = (ws: Workspace, kinds: readonly string[]) =>
  (
    ws.db
      .prepare(
        `SELECT COUNT(*) AS n FROM targets t JOIN units u ON u.id = t.unit_id WHERE u.kind IN (${kinds.map(() => '?').join(',')})`,
      )
      .get(...kinds) as { n: number }
  ).n

const WIRES: { name: string; provider: ProviderName; fallback: boolean }[] = [
  { name: 'openai', provider: 'openai', fallback: false },
  { name: 'anthropic', provider: 'anthropic', fallback: false },
  { name: 'openai-compatible without tools (JSON in text)', provider: 'openai-compatible', fallback: true },
]

describe.each(WIRES)('$name', ({ provider, fallback }) => {
  const llmMethods = JUDGE_METHODS.filter((m) => m !== 'lexical')
  it.each(llmMethods)('%s gives one accounted verdict per target', async (method) => {
    fake.setScript((req, n) => {
      if (req.schema) return answerAll('true')(req, n)
      // Plain-text prompts: the verdict word the method asks for.
      const word = /entailment/i.test(req.userText) ? 'Entailment' : 'True'
      return { kind: 'text', text: word }
    })
    const { ws, datasetId } = fullWorkspace(method)
    const baseUrl = provider === 'anthropic' ? fake.anthropicUrl : fake.openaiUrl
    const engine = engineFor(ws, { registry: BUILTIN_REGISTRY })
    const before = fake.calls()
    const runId = oneRun(ws, runRequest(datasetId, baseUrl, { provider, method, cache: false }))
    const s = await engine.start(runId)
    const impl = BUILTIN_REGISTRY.judges[method]!
    const expected = targetsOf(ws, impl.unitKinds)
    expect(s.status).toBe('done')
    expect(s.errors).toBe(0)
    expect(s.verdicts + s.na).toBe(expected)
    expect(s.verdicts).toBe(expected)
    if (method.startsWith('faaf')) expect(fake.calls() - before).toBe(ITEMS)
    if (method === 'prompt-tf') expect(fake.calls() - before).toBe(ITEMS * FACTS)
    if (fallback && method.startsWith('faaf')) expect(fake.requests.at(-1)?.inText).toBe(true)
    ws.close()
  })
})

describe('Prompt(T/F) parse modes through the wire', () => {
  it('word-match marks a reply holding both "True" and "False" N/A; strict reads the first word', async () => {
    fake.setScript(() => ({ kind: 'text', text: 'True. Well, arguably False.' }))
    const { ws, datasetId } = makeWorkspace(dir(), 1, 2)
    const engine = engineFor(ws, { registry: BUILTIN_REGISTRY })
    const loose = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'prompt-tf', cache: false }))
    expect(await engine.start(loose)).toMatchObject({ verdicts: 0, na: 2 })
    const problems = verdictRows(ws, loose).map((r) => JSON.parse(r.detail).problem as string)
    expect(problems.every((p) => /both/.test(p))).toBe(true)
    const strict = oneRun(
      ws,
      runRequest(datasetId, fake.openaiUrl, {
        method: 'prompt-tf',
        cache: false,
        settings: { parseMode: 'strict' },
      }),
    )
    expect(await engine.start(strict)).toMatchObject({ verdicts: 2, na: 0 })
    ws.close()
  })
})

describe('FaaF format failures', () => {
  it('records an enum value outside the schema as N/A after one attempt', async () => {
    fake.setScript((req) => ({ kind: 'tool', arguments: { ...toolArgsFor(req, 'true'), fact_0: 'perhaps' } }))
    const { ws, datasetId } = makeWorkspace(dir(), 2, 3)
    saveModel(ws.db, {
      provider: 'openai',
      model: 'gpt-fake',
      baseUrl: fake.openaiUrl,
      capabilities: DEFAULT_CAPABILITIES.openai,
      priceInputPerMTok: 0,
      priceOutputPerMTok: 0,
    })
    const before = fake.calls()
    const runId = oneRun(ws, runRequest(datasetId, fake.openaiUrl, { method: 'faaf-tf', cache: false }))
    const s = await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(runId)
    expect(fake.calls() - before).toBe(2)
    expect(s.na).toBeGreaterThanOrEqual(2)
    expect(s.errors).toBe(0)
    ws.close()
  })
})

describe('repair retry', () => {
  it('is off by default, and when on it is one extra call counted apart from first attempts', async () => {
    let n = 0
    fake.setScript((req) => {
      n++
      const args = toolArgsFor(req, 'true')
      return { kind: 'tool', arguments: n === 1 ? { ...args, fact_0: 'perhaps' } : args }
    })
    const { ws, datasetId } = makeWorkspace(dir(), 1, 2)
    const runId = oneRun(
      ws,
      runRequest(datasetId, fake.openaiUrl, {
        method: 'faaf-tf',
        cache: false,
        settings: { repairRetry: true },
      }),
    )
    const s = await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(runId)
    expect(s).toMatchObject({ calls: 2, repairs: 1, verdicts: 2, na: 0 })
    ws.close()
  })
})

it('the lexical baseline judges with no provider call at all', async () => {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 3)
  const before = fake.calls()
  const runId = oneRun(
    ws,
    runRequest(datasetId, '', { provider: 'lexical', model: 'lexical', method: 'lexical' }),
  )
  const s = await engineFor(ws, { registry: BUILTIN_REGISTRY }).start(runId)
  expect(s).toMatchObject({ status: 'done', calls: 0, verdicts: 6 })
  expect(fake.calls()).toBe(before)
  ws.close()
})
