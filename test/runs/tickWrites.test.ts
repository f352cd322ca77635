import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { type CallRecord, insertCall } from '../../src/main/runs/repo'
import { TickWrites } from '../../src/main/runs/tickWrites'
import { VerdictWrites } from '../../src/main/runs/verdictWrites'
import { insertVerdicts } from '../../src/main/verdicts/write'
import { tmpDirs } from '../helpers/tmp'
import { makeWorkspace, oneRun, runRequest } from './helpers'

const dir = tmpDirs()

function setup() {
  const { ws, datasetId } = makeWorkspace(dir(), 2, 1)
  const runId = oneRun(ws, runRequest(datasetId, 'http://127.0.0.1:9/v1'))
  // A second connection sees only what has been committed, as a process resuming the run would.
  const reader = new Database(ws.file, { readonly: true })
  const committed = () =>
    (
      reader.prepare('SELECT call_key FROM run_calls WHERE run_id = ? ORDER BY call_key').all(runId) as {
        call_key: string
      }[]
    ).map((r) => r.call_key)
  const call = (key: string): CallRecord => ({
    runId,
    key,
    status: 'done',
    requestHash: `hash-${key}`,
    request: { key },
    reply: null,
    cached: false,
    attempts: 1,
    latencyMs: 100,
    promptTokens: 10,
    completionTokens: 2,
    cost: 0,
    error: null,
  })
  const close = () => {
    reader.close()
    ws.close()
  }
  return { ws, committed, call, close }
}

describe('run writes committed once per turn', () => {
  it('tells each write done only once it is committed, with the others asked for in the same turn', async () => {
    const { ws, committed, call, close } = setup()
    const writes = new TickWrites(ws.db)
    const ids = ['a', 'b', 'c'].map((k) => writes.write(() => insertCall(ws.db, call(k))))
    // Nothing is on disk yet: a kill now loses these replies, and nobody has been told of them.
    expect(committed()).toEqual([])
    const seenWhenFirstSettled = await ids[0]?.then(() => committed())
    expect(seenWhenFirstSettled).toEqual(['a', 'b', 'c'])
    const [a, b, c] = await Promise.all(ids)
    expect(new Set([a, b, c]).size).toBe(3)
    close()
  })

  it('keeps the other writes of a turn when one of them fails', async () => {
    const { ws, committed, call, close } = setup()
    const writes = new TickWrites(ws.db)
    const good = writes.write(() => insertCall(ws.db, call('good')))
    const bad = writes.write(() => {
      insertCall(ws.db, call('half-done'))
      throw new Error('the disk is full')
    })
    const also = writes.write(() => insertCall(ws.db, call('also-good')))
    await expect(bad).rejects.toThrow('the disk is full')
    await expect(good).resolves.toBeTypeOf('number')
    await expect(also).resolves.toBeTypeOf('number')
    // The failed write left nothing behind, not even its first half.
    expect(committed()).toEqual(['also-good', 'good'])
    close()
  })

  it('settles after writes asked for while it waited', async () => {
    const { ws, committed, call, close } = setup()
    const writes = new TickWrites(ws.db)
    void writes
      .write(() => insertCall(ws.db, call('first')))
      .then(() => {
        void writes.write(() => insertCall(ws.db, call('then')))
      })
    await writes.settled()
    expect(committed()).toEqual(['first', 'then'])
    close()
  })
})

describe('verdicts written together', () => {
  it('stores what writing candidate by candidate stores, and tells each done once committed', async () => {
    const { ws, datasetId } = makeWorkspace(dir(), 6, 2)
    const bulkRun = oneRun(ws, runRequest(datasetId, 'http://127.0.0.1:9/v1'))
    const rowRun = oneRun(ws, runRequest(datasetId, 'http://127.0.0.1:9/v1', { method: 'prompt-tf' }))
    const targets = ws.db.prepare('SELECT id FROM targets ORDER BY id').pluck().all() as number[]
    const reader = new Database(ws.file, { readonly: true })
    const committed = (runId: number) =>
      reader.prepare('SELECT COUNT(*) FROM verdicts WHERE run_id = ?').pluck().get(runId) as number
    const callIds = ['k0', 'k1', 'k2', 'k3'].map((key) =>
      insertCall(ws.db, {
        runId: bulkRun,
        key,
        status: 'done',
        requestHash: key,
        request: {},
        reply: null,
        cached: false,
        attempts: 1,
        latencyMs: 1,
        promptTokens: 1,
        completionTokens: 1,
        cost: 0,
        error: null,
      }),
    )
    const candidates = [0, 1, 2, 3, 4, 5].map((c) => ({
      callId: c % 3 === 0 ? null : (callIds[c % 3] ?? null),
      outcomes: targets.slice(c * 2, c * 2 + 2).map((targetId, i) => ({
        targetId,
        status: (['ok', 'na', 'error'] as const)[(c + i) % 3] as 'ok' | 'na' | 'error',
        verdict: (c + i) % 3 === 0 ? (i ? 'true' : 'false') : null,
        ...(c === 2 ? { score: 0.5, reason: 'because', citation: 'a line' } : {}),
        ...((c + i) % 3 === 1 ? { problem: 'no answer' } : {}),
        ...(c === 4 ? { detail: { marks: [1, -1] }, callId: callIds[3] } : {}),
      })),
    }))
    // A candidate judged again in a later turn (a retry) keeps its last verdicts, as rows do.
    const again = {
      callId: callIds[0] ?? null,
      outcomes: candidates[1]?.outcomes.map((o) => ({ ...o, status: 'ok' as const, verdict: 'true' })) ?? [],
    }
    const writes = new TickWrites(ws.db)
    const verdicts = new VerdictWrites(ws.db, bulkRun, writes)
    const firstTurn = candidates.slice(0, 4).map((c) => verdicts.write(c.outcomes, c.callId))
    expect(committed(bulkRun)).toBe(0)
    await firstTurn[0]
    expect(committed(bulkRun)).toBe(8)
    await Promise.all([...candidates.slice(4), again].map((c) => verdicts.write(c.outcomes, c.callId)))
    ws.db.transaction(() => {
      for (const c of [...candidates, again]) insertVerdicts(ws.db, rowRun, c.outcomes, c.callId)
    })()
    const rows = (runId: number) =>
      ws.db
        .prepare(
          'SELECT target_id, call_id, status, verdict, score, reason, citation, detail FROM verdicts WHERE run_id = ? ORDER BY target_id',
        )
        .all(runId)
    expect(rows(bulkRun)).toEqual(rows(rowRun))
    expect(rows(bulkRun)).toHaveLength(12)
    expect(committed(bulkRun)).toBe(12)
    reader.close()
    ws.close()
  })
})
