import { describe, expect, it } from 'vitest'
import { Workspace } from '../../src/main/app/workspace'
import { resultIngester } from '../../src/main/batches/ingest'
import { batchRequests, retriesOf, waitingKeys } from '../../src/main/batches/repo'
import { createAnthropicClient } from '../../src/main/providers/anthropic'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { createRuns } from '../../src/main/runs/create'
import { getRun } from '../../src/main/runs/repo'
import { LATEST_VERSION, openWorkspace, schemaVersion } from '../../src/main/store/connection'
import { MIGRATIONS } from '../../src/main/store/migrations'
import { createDataset } from '../../src/main/store/repos/datasets'
import { verdictExportRows } from '../../src/main/verdicts/reads'
import { FAAF_SCHEMA } from '../../src/shared/labelSchemas'
import { tmpDirs } from '../helpers/tmp'

const tmp = tmpDirs()

const record = (fact: string, tool: boolean) =>
  JSON.stringify({
    request: {
      messages: [{ role: 'user', content: `Is "${fact}" true?` }],
      ...(tool ? { tool: { name: 'record', description: 'd', parameters: { type: 'object' } } } : {}),
    },
    wire: { model: 'claude-fake', max_tokens: 2048, messages: [{ role: 'user', content: fact }] },
  })

const message = {
  id: 'msg',
  type: 'message',
  role: 'assistant',
  model: 'claude-fake',
  content: [{ type: 'text', text: 'True' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 1 },
}

describe('migration 0130: batch call records kept once', () => {
  it('keeps every batch request, its record and state; old calls keep their copy, new ones name their request', () => {
    const file = `${tmp()}/w.factlab`
    const old = openWorkspace(file, { migrations: MIGRATIONS.filter((m) => m.version < 130) })
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
    // As the code before 0130 left a batch: records inline, the answered call holding a copy.
    const rows = [
      { customId: 'r-b-t-0', key: 'k0', record: record('F0.', true), state: 'done' },
      { customId: 'r-b-t-1', key: 'k1', record: record('F1.', false), state: 'waiting' },
      { customId: 'r-b-t-2', key: 'k2', record: record('F2.', false), state: 'retry' },
    ]
    const insert = old.prepare(
      `INSERT INTO run_batch_requests (batch_id, custom_id, run_id, call_key, request_hash, request, state)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    for (const r of rows) insert.run(batchId, r.customId, runId, r.key, `h-${r.key}`, r.record, r.state)
    const oldCall = Number(
      old
        .prepare(
          `INSERT INTO run_calls (run_id, call_key, status, request_hash, request, response, attempts, via_batch)
           VALUES (?, 'k0', 'done', 'h-k0', ?, ?, 1, 1)`,
        )
        .run(runId, rows[0]!.record, JSON.stringify({ text: 'True' })).lastInsertRowid,
    )
    old
      .prepare(
        "INSERT INTO verdicts (run_id, target_id, call_id, status, verdict) VALUES (?, ?, ?, 'ok', 'true')",
      )
      .run(runId, targets[0], oldCall)
    old.close()

    const ws = Workspace.open(file)
    const db = ws.db
    expect(schemaVersion(db)).toBe(LATEST_VERSION)
    expect(batchRequests(db, batchId)).toEqual(
      rows.map((r) => ({
        customId: r.customId,
        callKey: r.key,
        requestHash: `h-${r.key}`,
        record: r.record,
        state: r.state,
      })),
    )
    expect(db.prepare('SELECT tool FROM run_batch_requests ORDER BY id').pluck().all()).toEqual([1, 0, 0])
    expect([...waitingKeys(db, runId!)]).toEqual(['k1'])
    expect(retriesOf(db, runId!, 'k2')).toBe(1)

    // The waiting request's result, read after the upgrade: its call names the request.
    const run = getRun(db, runId!)
    const ingest = resultIngester({
      db,
      runId: runId!,
      batchId,
      config: run.config,
      client: createAnthropicClient({
        provider: 'anthropic',
        model: 'claude-fake',
        capabilities: DEFAULT_CAPABILITIES.anthropic,
        timeoutMs: 1000,
      }),
      apiKey: null,
    })
    ingest.push({ customId: 'r-b-t-1', kind: 'succeeded', body: message })
    ingest.flush()
    const call = db
      .prepare("SELECT id, request, batch_request_id FROM run_calls WHERE call_key = 'k1'")
      .get() as { id: number; request: string | null; batch_request_id: number }
    expect(call.request).toBeNull()
    db.prepare(
      "INSERT INTO verdicts (run_id, target_id, call_id, status, verdict) VALUES (?, ?, ?, 'ok', 'true')",
    ).run(runId, targets[1], call.id)
    // The raw export reads both records as they were written, wherever they are kept.
    expect([...verdictExportRows(db, runId!, true)].map((r) => r.request)).toEqual([
      rows[0]!.record,
      rows[1]!.record,
    ])

    // A run goes with all of its batch rows.
    db.prepare('DELETE FROM runs WHERE id = ?').run(runId)
    for (const t of ['run_batch_requests', 'run_batch_request_records', 'run_calls'])
      expect(db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get()).toBe(0)
    ws.close()
  })
})
