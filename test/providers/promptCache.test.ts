import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { anthropicBody } from '../../src/main/providers/anthropic'
import { saveModel } from '../../src/main/providers/models'
import { openAiBody } from '../../src/main/providers/openai'
import { DEFAULT_CAPABILITIES, type LlmRequest } from '../../src/main/providers/types'
import { createRuns, type RunRequest } from '../../src/main/runs/create'
import { runSummary } from '../../src/main/runs/repo'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { batchEngine } from '../batches/helpers'
import { type FakeServer, startFakeLlm } from '../fake-llm/server'
import { freshWorkspaceFile } from '../helpers/freshWorkspace'
import { tmpDirs } from '../helpers/tmp'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: () => ({ kind: 'text', text: 'True' }) })
})
afterAll(() => fake.close())

/** Items with a long answer (well over the providers' minimum cacheable prefix) and several facts. */
function longWorkspace(items: number, facts: number): { ws: Workspace; datasetId: number } {
  const ws = Workspace.open(freshWorkspaceFile(join(dir(), 'ws.factlab')))
  const ds = createDataset(ws.db, { name: 'd', labelSchema: FAAF_SCHEMA })
  ws.db.transaction(() => {
    for (let i = 0; i < items; i++) {
      const item = ws.content.insertItem(
        ds.id,
        { extId: `q${i}`, question: `Question ${i}?`, reference: 'R.' },
        i,
      )
      const answer = Array.from(
        { length: 120 },
        (_, k) => `Sentence ${k} of answer ${i} says something specific.`,
      ).join(' ')
      ws.content.insertCandidate(item, { variant: 'answer', text: answer })
      for (let f = 0; f < facts; f++)
        ws.content.insertUnit(item, { kind: 'fact', text: `Fact ${f} of item ${i}.` })
    }
  })()
  return { ws, datasetId: ds.id }
}

const PRICES = { in: 3, out: 15, read: 0.3, write: 3.75 }

function prepare(ws: Workspace, provider: 'openai' | 'anthropic'): void {
  saveModel(ws.db, {
    provider,
    model: 'm',
    baseUrl: provider === 'openai' ? fake.openaiUrl : fake.anthropicUrl,
    capabilities: DEFAULT_CAPABILITIES[provider],
    priceInputPerMTok: PRICES.in,
    priceOutputPerMTok: PRICES.out,
    priceCacheReadPerMTok: PRICES.read,
    priceCacheWritePerMTok: PRICES.write,
  })
}

const req = (
  ws: Workspace,
  datasetId: number,
  provider: 'openai' | 'anthropic',
  over: Partial<RunRequest> = {},
) =>
  createRuns(ws.db, {
    datasetId,
    provider,
    model: 'm',
    baseUrl: provider === 'openai' ? fake.openaiUrl : fake.anthropicUrl,
    method: 'prompt-tf',
    concurrency: 1,
    cache: false,
    ...over,
  })[0] as number

interface CallRow {
  prompt_tokens: number
  completion_tokens: number
  cache_read_tokens: number
  cache_write_tokens: number
  cost: number
  via_batch: number
}
const callRows = (ws: Workspace, runId: number) =>
  ws.db
    .prepare(
      'SELECT prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost, via_batch FROM run_calls WHERE run_id = ? ORDER BY id',
    )
    .all(runId) as CallRow[]

describe('prompt caching', () => {
  it('Anthropic: the shared prefix (system prompt and passage) carries the cache breakpoint; OpenAI gets the prefix first', () => {
    const request: LlmRequest = {
      system: 'S',
      messages: [{ role: 'user', content: 'Passage: long text.\nStatement: one fact.' }],
      cachePrefix: 'Passage: long text.\n'.length,
    }
    const opts = { model: 'm', capabilities: DEFAULT_CAPABILITIES.anthropic, timeoutMs: 1 }
    expect(anthropicBody(request, { ...opts, provider: 'anthropic' }).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Passage: long text.\n', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Statement: one fact.' },
        ],
      },
    ])
    const openai = openAiBody(request, {
      ...opts,
      provider: 'openai',
      capabilities: DEFAULT_CAPABILITIES.openai,
    })
    expect(openai.messages).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Passage: long text.\nStatement: one fact.' },
    ])
  })

  it.each(['anthropic', 'openai'] as const)(
    '%s: cached, cache-write and uncached tokens are stored per call and priced apart; the sum is the run cost',
    async (provider) => {
      const { ws, datasetId } = longWorkspace(3, 5)
      prepare(ws, provider)
      const cached = req(ws, datasetId, provider)
      const plain = req(ws, datasetId, provider, { settings: { promptCache: false } })
      await batchEngine(ws).start(cached)
      await batchEngine(ws).start(plain)
      const rows = callRows(ws, cached)
      expect(rows).toHaveLength(15)
      const reads = rows.filter((r) => r.cache_read_tokens > 0).length
      if (provider === 'anthropic') {
        // One write per candidate, read by the candidate's other four facts.
        expect(rows.filter((r) => r.cache_write_tokens > 0)).toHaveLength(3)
        expect(reads).toBe(12)
      } else {
        // OpenAI caches by itself: every call after the first of a candidate shares its prefix.
        expect(reads).toBeGreaterThanOrEqual(12)
        expect(rows.every((r) => r.cache_write_tokens === 0)).toBe(true)
      }
      for (const r of rows) {
        const uncached = r.prompt_tokens - r.cache_read_tokens - r.cache_write_tokens
        expect(uncached).toBeGreaterThan(0)
        const expected =
          (uncached * PRICES.in +
            r.cache_read_tokens * PRICES.read +
            r.cache_write_tokens * PRICES.write +
            r.completion_tokens * PRICES.out) /
          1e6
        expect(r.cost).toBeCloseTo(expected, 12)
      }
      const total = rows.reduce((n, r) => n + r.cost, 0)
      const s = runSummary(ws.db, cached)
      expect(s.cost).toBeCloseTo(total, 12)
      expect(s.cache_read_tokens).toBe(rows.reduce((n, r) => n + r.cache_read_tokens, 0))
      if (provider === 'anthropic') {
        // Without the breakpoint nothing is cached and the passage is paid for every fact.
        expect(callRows(ws, plain).every((r) => r.cache_read_tokens + r.cache_write_tokens === 0)).toBe(true)
        expect(s.cost / runSummary(ws.db, plain).cost).toBeLessThan(0.6)
      }
      ws.close()
    },
  )

  it('a batch run with caching is priced at the batch discount on top of the cache prices', async () => {
    const { ws, datasetId } = longWorkspace(2, 3)
    prepare(ws, 'anthropic')
    const runId = req(ws, datasetId, 'anthropic', { mode: 'batch' })
    await batchEngine(ws).start(runId)
    const rows = callRows(ws, runId)
    expect(rows.every((r) => r.via_batch === 1)).toBe(true)
    expect(rows.some((r) => r.cache_read_tokens > 0)).toBe(true)
    for (const r of rows) {
      const uncached = r.prompt_tokens - r.cache_read_tokens - r.cache_write_tokens
      const full =
        (uncached * PRICES.in +
          r.cache_read_tokens * PRICES.read +
          r.cache_write_tokens * PRICES.write +
          r.completion_tokens * PRICES.out) /
        1e6
      expect(r.cost).toBeCloseTo(full * 0.5, 12)
    }
    ws.close()
  })
})
