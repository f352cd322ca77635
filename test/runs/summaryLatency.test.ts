import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { insertCall, runSummary } from '../../src/main/runs/repo'
import { tmpDirs } from '../helpers/tmp'
import { makeFixture } from '../metrics/fixture'
import { finishedCall, lexicalRun } from './helpers'

const tmp = tmpDirs()

const call = fc.record({
  cached: fc.boolean(),
  latencyMs: fc.option(fc.constantFrom(0, 1.5, 12, 12, 40, 250.25, 9000), { nil: null }),
})

describe('a run summary’s middle latency', () => {
  it('is the middle of the latencies of the calls that reached the provider, none when no call has one', () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 30 }), (calls) => {
        const fx = makeFixture(tmp(), { items: 1, variants: ['answer'], facts: 1 })
        const run = lexicalRun(fx.db, fx.datasetId)
        for (const [i, c] of calls.entries())
          insertCall(fx.db, finishedCall(run, i, { cached: c.cached, latencyMs: c.latencyMs }))
        // The rule spelled out: the latencies of uncached calls that have one, sorted, the one at
        // half their number (rounded down).
        const sorted = calls
          .filter((c) => !c.cached && c.latencyMs !== null)
          .map((c) => c.latencyMs as number)
          .sort((a, b) => a - b)
        const expected = sorted.length ? (sorted[Math.floor(sorted.length / 2)] ?? null) : null
        expect(runSummary(fx.db, run).latency_ms_p50).toBe(expected)
        fx.db.close()
      }),
      { numRuns: 40, seed: 240 },
    )
  })
})
