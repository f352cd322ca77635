import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { resultIngester } from '../../src/main/batches/ingest'
import { createAnthropicClient } from '../../src/main/providers/anthropic'
import type { LlmReply } from '../../src/main/providers/types'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { createRuns } from '../../src/main/runs/create'
import { findCall, getRun } from '../../src/main/runs/repo'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { createDataset } from '../../src/main/store/repos/datasets'
import { verdictExportRows } from '../../src/main/verdicts/reads'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const message = (text: string) => ({
  id: `msg-${text}`,
  type: 'message',
  role: 'assistant',
  model: 'claude-fake',
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 1 },
})

describe('migration 0150: the replies of a batch kept together', () => {
  it('an old call keeps its own reply; a new one is read from its chunk, text for text; both go with the run', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 150) })
    const ws0 = new Workspace(file, old)
    const ds = createDataset(old, { name: 'd', labelSchema: FAAF_SCHEMA })
    const item = ws0.content.insertItem(ds.id, { extId: 'q0', question: 'Q?', reference: 'R.' }, 0)
    ws0.content.insertCandidate(item, { variant: 'answer', text: 'A.' })
    for (const f of ['F0.', 'F1.', 'F2.']) ws0.content.insertUnit(item, { kind: 'fact', text: f })
    const targets = old.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
    const [runId] = createRuns(old, {
      datasetId: ds.id,
      provider: 'anthropic',
      model: 'claude-fake',
      baseUrl: 'http://127.0.0.1:9/',
      method: 'prompt-tf',
      mode: 'batch',
      cache: false,
    })
    const batchId = Number(
      old
        .prepare(
          `INSERT INTO run_batches (run_id, provider, state, provider_batch_id, requests, bytes, created_at)
           VALUES (?, 'anthropic', 'submitted', 'msgbatch_1', 3, 100, 'now')`,
        )
        .run(runId).lastInsertRowid,
    )
    const insertRequest = old.prepare(
      `INSERT INTO run_batch_requests (batch_id, custom_id, run_id, call_key, request_hash, tool, state)
       VALUES (?, ?, ?, ?, ?, 0, ?)`,
    )
    const insertRecord = old.prepare(
      'INSERT INTO run_batch_request_records (request_id, record) VALUES (?, ?)',
    )
    const requestIds = ['done', 'waiting', 'waiting'].map((state, i) => {
      const id = Number(
        insertRequest.run(batchId, `r-b-t-${i}`, runId, `k${i}`, `h-k${i}`, state).lastInsertRowid,
      )
      insertRecord.run(id, JSON.stringify({ request: { messages: [] }, wire: { n: i } }))
      return id
    })
    // As the code before 0150 left an answered call: its reply in its own row.
    const oldReply = JSON.stringify({
      text: 'False',
      toolArguments: null,
      viaFallback: false,
      finishReason: 'end_turn',
      usage: { promptTokens: 10, completionTokens: 1 },
      raw: message('False'),
    })
    const oldCall = Number(
      old
        .prepare(
          `INSERT INTO run_calls (run_id, call_key, status, request_hash, response, attempts, via_batch, batch_request_id)
           VALUES (?, 'k0', 'done', 'h-k0', ?, 1, 1, ?)`,
        )
        .run(runId, oldReply, requestIds[0]).lastInsertRowid,
    )
    old
      .prepare(
        "INSERT INTO verdicts (run_id, target_id, call_id, status, verdict) VALUES (?, ?, ?, 'ok', 'false')",
      )
      .run(runId, targets[0], oldCall)
    old.close()

    const ws = Workspace.open(file)
    const db = ws.db
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    expect(findCall(db, runId!, 'k0')?.reply?.text).toBe('False')

    // The two waiting requests' results, read after the upgrade, in one chunk.
    const answered = new Map<string, { callId: number; reply: LlmReply }>()
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
      answered,
    })
    ingest.push({ customId: 'r-b-t-1', kind: 'succeeded', body: message('True') })
    ingest.push({ customId: 'r-b-t-2', kind: 'succeeded', body: message('True, it says so') })
    ingest.flush()
    const calls = db
      .prepare(
        "SELECT id, call_key, response, request_hash, reply_chunk, reply_line FROM run_calls WHERE call_key IN ('k1', 'k2') ORDER BY call_key",
      )
      .all() as {
      id: number
      response: string | null
      request_hash: string | null
      reply_chunk: number
      reply_line: number
    }[]
    expect(calls.map((c) => [c.response, c.request_hash, c.reply_line])).toEqual([
      [null, 'h-k1', 0],
      [null, 'h-k2', 1],
    ])
    expect(db.prepare('SELECT COUNT(*) FROM run_batch_replies').pluck().get()).toBe(1)
    // Read back (as a resumed pass does) exactly as the ingest read it, raw reply included.
    for (const [key, text] of [
      ['k1', 'True'],
      ['k2', 'True, it says so'],
    ] as const) {
      const stored = findCall(db, runId!, key)
      expect(stored?.reply?.text).toBe(text)
      expect(stored?.reply?.raw).toEqual(message(text))
      expect({ ...stored?.reply, raw: null }).toEqual(answered.get(key)?.reply)
    }
    const insertVerdict = db.prepare(
      "INSERT INTO verdicts (run_id, target_id, call_id, status, verdict) VALUES (?, ?, ?, 'ok', 'true')",
    )
    for (const [i, c] of calls.entries()) insertVerdict.run(runId, targets[i + 1], c.id)
    // The raw export reads each reply wherever it is kept.
    expect(
      [...verdictExportRows(db, runId!, true)].map(
        (r) => (JSON.parse(r.response ?? 'null') as LlmReply).text,
      ),
    ).toEqual(['False', 'True', 'True, it says so'])

    // A run goes with its chunks of replies.
    db.prepare('DELETE FROM runs WHERE id = ?').run(runId)
    for (const t of ['run_batch_replies', 'run_calls'])
      expect(db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get()).toBe(0)
    ws.close()
  })
})
