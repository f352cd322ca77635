import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type DoneBatchCall, insertBatchCall, insertDoneBatchCalls } from '../../src/main/batches/calls'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'

const tmp = tmpDirs()

const call = fc.record({
  key: fc.constantFrom('prompt-tf:1', 'prompt-tf:2', 'faaf:3:0', 'faaf:3:0:repair', 'dcr-amc:4', 'k"\\5'),
  promptTokens: fc.nat(),
  completionTokens: fc.nat(),
  cacheReadTokens: fc.nat(),
  cacheWriteTokens: fc.nat(),
  cost: fc.oneof(
    fc.double({ min: 0, max: 10, noNaN: true }),
    fc.constantFrom(0, 1e-9, Number.POSITIVE_INFINITY),
  ),
})

/** More calls than one statement takes (a hundred), keys of the first list among them. */
const manyCalls = fc
  .tuple(
    fc.uniqueArray(call, { selector: (c) => c.key, maxLength: 6 }),
    fc.array(call, { minLength: 90, maxLength: 240 }),
  )
  .map(([few, many]) => [...few, ...many.map((c, i) => ({ ...c, key: `prompt-tf:${1000 + i}` }))])

describe('calls of a chunk of replies stored a hundred per statement (migration 0150)', () => {
  it.each([
    ['a few calls', fc.uniqueArray(call, { selector: (c) => c.key, maxLength: 6 }), 40],
    ['calls taking several statements', manyCalls, 8],
  ] as const)(
    'are the rows storing them one by one gives, an earlier failed call of the key updated alike (%s)',
    (_, calls, numRuns) => {
      fc.assert(
        fc.property(
          calls,
          fc.subarray(['prompt-tf:1', 'faaf:3:0', 'k"\\5', 'prompt-tf:1050']),
          (calls, failedBefore) => {
            const fx = makeFixture(tmp(), { items: 1, variants: ['answer'], facts: 1 })
            const db = fx.db
            const runs = [fx.run('bulk', [], { kind: 'judge' }), fx.run('rows', [], { kind: 'judge' })]
            for (const run of runs)
              for (const key of failedBefore)
                insertBatchCall(
                  db,
                  run,
                  { id: 9, callKey: key, requestHash: 'h', tool: false, state: 'waiting' },
                  {
                    status: 'error',
                    reply: null,
                    promptTokens: 0,
                    completionTokens: 0,
                    cacheReadTokens: 0,
                    cacheWriteTokens: 0,
                    cost: 0,
                    error: 'HTTP 500: try again',
                    finishedAt: 'before',
                  },
                )
            const done: DoneBatchCall[] = calls.map((c, line) => ({
              ...c,
              req: { id: 100 + line, callKey: c.key, requestHash: 'h', tool: false, state: 'waiting' },
              chunk: 7 + (line % 2),
              line,
            }))
            const ids = db.transaction(() => insertDoneBatchCalls(db, runs[0]!, 'now', done))()
            const rowIds = db.transaction(() =>
              done.map((c) =>
                insertBatchCall(db, runs[1]!, c.req, {
                  status: 'done',
                  reply: { chunk: c.chunk, line: c.line },
                  promptTokens: c.promptTokens,
                  completionTokens: c.completionTokens,
                  cacheReadTokens: c.cacheReadTokens,
                  cacheWriteTokens: c.cacheWriteTokens,
                  cost: c.cost,
                  error: null,
                  finishedAt: 'now',
                }),
              ),
            )()
            const rows = (run: number) =>
              db
                .prepare(
                  `SELECT call_key, status, request_hash, request, response, cached, attempts, latency_ms, prompt_tokens,
                   completion_tokens, cost, typeof(cost) AS t, error, finished_at, cache_read_tokens, cache_write_tokens,
                   via_batch, batch_request_id, reply_chunk, reply_line FROM run_calls WHERE run_id = ? ORDER BY call_key`,
                )
                .all(run)
            expect(rows(runs[0]!)).toEqual(rows(runs[1]!))
            // Each key's id is its row's.
            const idOf = (run: number, key: string) =>
              db.prepare('SELECT id FROM run_calls WHERE run_id = ? AND call_key = ?').pluck().get(run, key)
            for (const [i, c] of done.entries()) {
              expect(ids.get(c.req.callKey)).toBe(idOf(runs[0]!, c.req.callKey))
              expect(rowIds[i]).toBe(idOf(runs[1]!, c.req.callKey))
            }
            db.close()
          },
        ),
        { numRuns, seed: 150 },
      )
    },
  )
})
