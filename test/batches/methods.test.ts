import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportVerdicts } from '../../src/main/export/verdictsExport'
import { createRuns } from '../../src/main/runs/create'
import { runSummary } from '../../src/main/runs/repo'
import { REFCHECKER_SCHEMA } from '../../src/shared/labelSchemas'
import { answerAll, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { tmpDirs } from '../helpers/tmp'
import { addEveryUnitKind, makeWorkspace } from '../runs/helpers'
import { batchEngine, setDatasetSchema } from './helpers'

const dir = tmpDirs()
let fake: FakeServer
beforeAll(async () => {
  // Text requests get "Entailment" (RefChecker's first word); tool requests get their enum value.
  const tools = answerAll('consistent')
  fake = await startFakeLlm({
    script: (req, i) => (req.schema ? tools(req, i) : { kind: 'text', text: 'Entailment. It says so.' }),
  })
})
afterAll(() => fake.close())

const CASES = [
  { method: 'refchecker', settings: {} },
  { method: 'refchecker-batched', settings: {} },
  // DCR with its second step as an LLM call: the AMC calls go out in a second batch round.
  { method: 'dcr', settings: { amcLlm: true } },
  { method: 'faaf-tfn-cite', settings: {} },
] as const

/** The export without latency: a batch reply has no per-call latency to report. */
function exported(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { latency_ms: _, ...rest } = JSON.parse(l) as Record<string, unknown>
      return rest
    })
}

describe.each(['openai', 'anthropic'] as const)('%s', (provider) => {
  it.each(CASES)(
    '$method in batch mode matches a synchronous run in verdicts, cost before discount and export',
    async ({ method, settings }) => {
      const root = dir()
      const { ws, datasetId } = makeWorkspace(root, 3, 2)
      addEveryUnitKind(ws)
      if (method.startsWith('refchecker')) setDatasetSchema(ws, REFCHECKER_SCHEMA)
      const base = {
        datasetId,
        provider,
        model: provider === 'openai' ? 'gpt-fake' : 'claude-fake',
        baseUrl: provider === 'openai' ? fake.openaiUrl : fake.anthropicUrl,
        method,
        settings,
        cache: false,
        backoffMs: 1,
      }
      const [sync] = createRuns(ws.db, base)
      const [batch] = createRuns(ws.db, { ...base, mode: 'batch' })
      const s = await batchEngine(ws).start(sync!)
      const b = await batchEngine(ws).start(batch!)
      expect(s.status).toBe('done')
      expect(b.status).toBe('done')
      expect(s.verdicts).toBeGreaterThan(0)
      // The fake's prompt cache outlives a run (as Anthropic's does for five minutes), so the second
      // run reads what the first wrote: same tokens, split differently.
      const same = (x: typeof s) => ({
        ...x,
        run: 0,
        mode: 'sync',
        latency_ms_p50: null,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        // The same tokens split otherwise between uncached and cache reads (as above).
        cost_split: null,
        // How many calls a batch answered: what tells the two apart, and all of the batch run's.
        batch_calls: 0,
      })
      expect(b.batch_calls).toBe(b.calls)
      expect(s.batch_calls).toBe(0)
      expect(same(b)).toEqual(same(s))
      const out = (id: number) => join(root, `v${id}.jsonl`)
      await exportVerdicts(ws, { runId: sync!, out: out(sync!) })
      await exportVerdicts(ws, { runId: batch!, out: out(batch!) })
      expect(exported(out(batch!))).toEqual(exported(out(sync!)))
      // Each row names its request's hash, as a synchronous run's do: the same request, the same hash.
      const hashes = (id: number) =>
        exported(out(id)).map((r) => (r as { request_hash: unknown }).request_hash)
      expect(hashes(batch!).every((h) => typeof h === 'string')).toBe(true)
      // Each call's tokens are counted once, on its first row: the column sums to the tokens of the
      // calls behind the verdicts, which is the run's tokens unless some call answered no verdict
      // of its own (DCR's AMC step scores a sentence its DCE call already judged).
      const tokens = exported(out(sync!)).reduce<number>(
        (n, r) => n + ((r as { prompt_tokens: number | null }).prompt_tokens ?? 0),
        0,
      )
      const behindVerdicts = ws.db
        .prepare(
          'SELECT SUM(prompt_tokens) FROM run_calls WHERE id IN (SELECT call_id FROM verdicts WHERE run_id = ?)',
        )
        .pluck()
        .get(sync!)
      expect(tokens).toBe(behindVerdicts)
      if (method !== 'dcr') expect(tokens).toBe(s.prompt_tokens)
      // With the raw record, every row carries the very request the synchronous run sent.
      const raw = (id: number) => join(root, `raw${id}.jsonl`)
      await exportVerdicts(ws, { runId: sync!, out: raw(sync!), raw: true })
      await exportVerdicts(ws, { runId: batch!, out: raw(batch!), raw: true })
      const requests = (f: string) => exported(f).map((r) => (r as { request: unknown }).request)
      expect(requests(raw(batch!))).toEqual(requests(raw(sync!)))
      // And the very reply each call got, read back from the batch's chunk of replies: what the
      // method read of it (the provider's own message differs only in ids the fake makes up).
      const replies = (f: string) =>
        exported(f).map((r) => {
          const reply = (r as { response: Record<string, unknown> | null }).response
          if (reply === null) return null
          const { text, toolArguments, finishReason, viaFallback } = reply
          return { text, toolArguments, finishReason, viaFallback }
        })
      expect(replies(raw(batch!)).every((r) => r !== null)).toBe(true)
      expect(replies(raw(batch!))).toEqual(replies(raw(sync!)))
      if (method === 'dcr') {
        const rounds = ws.db
          .prepare('SELECT COUNT(*) AS n FROM run_batches WHERE run_id = ?')
          .get(batch!) as { n: number }
        expect(rounds.n).toBe(2)
      }
      expect(runSummary(ws.db, batch!).mode).toBe('batch')
      ws.close()
    },
  )
})

describe('a method that makes one call per target', () => {
  it.each(['refchecker', 'prompt-tf'] as const)(
    '%s: each verdict names its own call, call by call and in batch mode',
    async (method) => {
      const { ws, datasetId } = makeWorkspace(dir(), 2, 3)
      // Two triplets per candidate: a candidate's verdicts come from several calls.
      addEveryUnitKind(ws)
      addEveryUnitKind(ws)
      if (method === 'refchecker') setDatasetSchema(ws, REFCHECKER_SCHEMA)
      const base = {
        datasetId,
        provider: 'openai' as const,
        model: 'gpt-fake',
        baseUrl: fake.openaiUrl,
        method,
        cache: false,
        backoffMs: 1,
      }
      for (const mode of ['sync', 'batch'] as const) {
        const [run] = createRuns(ws.db, { ...base, mode })
        expect((await batchEngine(ws).start(run!)).status).toBe('done')
        const rows = ws.db
          .prepare(
            'SELECT v.target_id AS target, c.call_key AS key FROM verdicts v JOIN run_calls c ON c.id = v.call_id WHERE v.run_id = ?',
          )
          .all(run!) as { target: number; key: string }[]
        expect(rows.length).toBe(method === 'refchecker' ? 4 : 6)
        // Before, every verdict of a candidate named the call that happened to finish last.
        for (const r of rows) expect(r.key).toBe(`${method}:${r.target}`)
      }
      ws.close()
    },
  )
})
