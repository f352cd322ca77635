import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { resultIngester } from '../../src/main/batches/ingest'
import { insertBatch } from '../../src/main/batches/repo'
import { createAnthropicClient } from '../../src/main/providers/anthropic'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { createRuns } from '../../src/main/runs/create'
import { findCall, getRun } from '../../src/main/runs/repo'
import { createDataset } from '../../src/main/store/repos/datasets'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()
const N = 300

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

describe('replies of a batch read back from their chunks (migration 0150)', () => {
  it('gives every call its own reply, whatever order the results came in and the calls are read in', () => {
    const ws = Workspace.open(`${tmp()}/w.factlab`)
    const db = ws.db
    const ds = createDataset(db, { name: 'd', labelSchema: FAAF_SCHEMA })
    // One fact to judge: a run is created only over units its method judges.
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
    })
    const batchId = insertBatch(db, { runId: runId!, provider: 'anthropic', bytes: 1 }, (b) =>
      Array.from({ length: N }, (_, n) => ({
        customId: `r-b${b}-t-${n}`,
        callKey: `k${n}`,
        requestHash: `h${n}`,
        record: '{}',
        tool: false,
      })),
    )
    const ingest = resultIngester({
      db,
      runId: runId!,
      batchId,
      config: getRun(db, runId!).config,
      client: createAnthropicClient({
        provider: 'anthropic',
        model: 'claude-fake',
        capabilities: DEFAULT_CAPABILITIES.anthropic,
        timeoutMs: 1000,
      }),
      apiKey: null,
    })
    // Results in a scrambled order, over several chunks of replies.
    const order = Array.from({ length: N }, (_, n) => (n * 7919) % N)
    for (const n of order)
      ingest.push({ customId: `r-b${batchId}-t-${n}`, kind: 'succeeded', body: message(n) })
    ingest.flush()
    expect(db.prepare('SELECT COUNT(*) FROM run_batch_replies').pluck().get()).toBeGreaterThan(1)
    // Read in request order, then scrambled: each call finds its own reply, raw reply included.
    for (const n of [...Array.from({ length: N }, (_, k) => k), ...order]) {
      const reply = findCall(db, runId!, `k${n}`)?.reply
      expect(reply?.text).toBe(`reply ${n}`)
      expect(reply?.usage.promptTokens).toBe(10 + n)
      expect(reply?.raw).toEqual(message(n))
    }
    ws.close()
  })
})
