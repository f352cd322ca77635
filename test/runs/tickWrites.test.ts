import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { type CallRecord, insertCall } from '../../src/main/runs/repo'
import { TickWrites } from '../../src/main/runs/tickWrites'
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
