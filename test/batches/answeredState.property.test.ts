import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { resultIngester } from '../../src/main/batches/ingest'
import { batchRequests, insertBatch, markUnanswered, waitingKeys } from '../../src/main/batches/repo'
import { createAnthropicClient } from '../../src/main/providers/anthropic'
import type { BatchResult } from '../../src/main/providers/batch/types'
import type { ProviderClient } from '../../src/main/providers/client'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { createRuns } from '../../src/main/runs/create'
import { getRun } from '../../src/main/runs/repo'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const message = (n: number) => ({
  id: `msg-${n}`,
  type: 'message',
  role: 'assistant',
  model: 'claude-fake',
  content: [{ type: 'text', text: `reply ${n}` }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10 + n, output_tokens: 1 },
})

/** What the provider returned for one request: an answer, a failure, no result yet, or none at all. */
type Outcome = 'succeeded' | 'final' | 'retry' | 'unfinished' | 'missing'

const resultOf = (customId: string, n: number, o: Outcome): BatchResult | null => {
  if (o === 'succeeded') return { customId, kind: 'succeeded', body: message(n) }
  if (o === 'final') return { customId, kind: 'errored', status: 400, message: 'bad request' }
  if (o === 'retry') return { customId, kind: 'errored', status: 500, message: 'overloaded' }
  if (o === 'unfinished') return { customId, kind: 'unfinished', why: 'expired' }
  return null
}

/** The state each outcome leaves on its request, with three attempts allowed (one used here). */
const EXPECTED: Record<Outcome, string> = {
  succeeded: 'done',
  final: 'error',
  retry: 'retry',
  unfinished: 'unfinished',
  missing: 'waiting',
}

function setUp(requests: number) {
  const ws = Workspace.open(`${tmp()}/w.factlab`)
  const db = ws.db
  const ds = createDataset(db, { name: 'd', labelSchema: FAAF_SCHEMA })
  const item = ws.content.insertItem(ds.id, { extId: 'q', question: 'Q?', reference: 'R.' }, 0)
  ws.content.insertCandidate(item, { variant: 'answer', text: 'A.' })
  ws.content.insertUnit(item, { kind: 'fact', text: 'F.' })
  const [runId] = createRuns(db, {
    datasetId: ds.id,
    provider: 'anthropic',
    model: 'claude-fake',
    baseUrl: 'http://127.0.0.1:9/',
    method: 'prompt-tf',
    mode: 'batch',
    cache: false,
    maxAttempts: 3,
  })
  const batchId = insertBatch(db, { runId: runId!, provider: 'anthropic', bytes: 1 }, (b) =>
    Array.from({ length: requests }, (_, n) => ({
      customId: `r-b${b}-t-${n}`,
      callKey: `k${n}`,
      requestHash: `h${n}`,
      record: '{}',
      tool: false,
    })),
  )
  return { ws, db, runId: runId!, batchId }
}

describe('a batch request counts as answered by the call row that stores its answer', () => {
  it('reads back every request in the state its result gave it, after a read cut off at any point and read again', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Outcome>('succeeded', 'final', 'retry', 'unfinished', 'missing'), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.nat(),
        fc.nat(),
        (outcomes, seed, cutAt) => {
          const { ws, db, runId, batchId } = setUp(outcomes.length)
          try {
            const order = outcomes
              .map((_, n) => n)
              .sort((a, b) => ((a * 31 + seed) % 97) - ((b * 31 + seed) % 97))
            const results = order
              .map((n) => resultOf(`r-b${batchId}-t-${n}`, n, outcomes[n] as Outcome))
              .filter((r): r is BatchResult => r !== null)
            const real = createAnthropicClient({
              provider: 'anthropic',
              model: 'claude-fake',
              capabilities: DEFAULT_CAPABILITIES.anthropic,
              timeoutMs: 1000,
            })
            const config = getRun(db, runId).config
            // The first read dies on one reply, as a kill mid-results would: what it had not
            // committed is gone, the rest is in.
            let read = 0
            const cut = cutAt % (results.length + 1)
            const readReply = real.readReply?.bind(real)
            if (!readReply) throw new Error('the Anthropic client reads batch replies')
            const dying: ProviderClient = {
              ...real,
              readReply: (body, tool) => {
                if (read++ === cut) throw new Error('killed')
                return readReply(body, tool)
              },
            }
            const first = resultIngester({ db, runId, batchId, config, client: dying, apiKey: null })
            try {
              for (const [i, r] of results.entries()) {
                first.push(r)
                if (i % 3 === 2) first.flush()
              }
              first.flush()
            } catch (error) {
              expect((error as Error).message).toBe('killed')
            }
            // Read again from the start, as resume does.
            const again = resultIngester({ db, runId, batchId, config, client: real, apiKey: null })
            for (const r of results) again.push(r)
            again.flush()

            const byKey = new Map(batchRequests(db, batchId).map((r) => [r.callKey, r.state]))
            for (const [n, o] of outcomes.entries())
              expect(byKey.get(`k${n}`), `k${n} ${o}`).toBe(EXPECTED[o])
            const missing = outcomes.flatMap((o, n) => (o === 'missing' ? [`k${n}`] : []))
            expect([...waitingKeys(db, runId)].sort()).toEqual(missing.sort())
            expect(again.outstanding().waiting).toBe(missing.length)
            // One call per answered or finally failed key, each answer stored once.
            const calls = db
              .prepare('SELECT call_key, status FROM run_calls WHERE run_id = ? ORDER BY call_key')
              .all(runId) as { call_key: string; status: string }[]
            const stored = outcomes.flatMap((o, n) =>
              o === 'succeeded' ? [[`k${n}`, 'done']] : o === 'final' ? [[`k${n}`, 'error']] : [],
            )
            expect(calls.map((c) => [c.call_key, c.status]).sort()).toEqual(stored.sort())
            // The batch ends: only requests with no result become unfinished; answers stay done.
            expect(markUnanswered(db, batchId)).toBe(missing.length)
            const after = new Map(batchRequests(db, batchId).map((r) => [r.callKey, r.state]))
            for (const [n, o] of outcomes.entries())
              expect(after.get(`k${n}`)).toBe(o === 'missing' ? 'unfinished' : EXPECTED[o])
          } finally {
            ws.close()
          }
        },
      ),
      { numRuns: 40 },
    )
  }, 300_000)
})
