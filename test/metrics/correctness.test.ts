import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { correctness } from '../../src/main/metrics/correctness'
import { type RunColumns, runSpan, ST_OK } from '../../src/main/metrics/load'
import { correctnessBits } from '../../src/main/metrics/stats/mcnemar'

describe("a run's correctness bits", () => {
  it('are correctnessBits of its per-target right / wrong / not judged', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(3), fc.integer({ min: -1, max: 1 }), fc.integer({ min: -1, max: 1 })), {
          maxLength: 300,
          size: 'max',
        }),
        fc.nat(40),
        (cells, lead) => {
          // Runs starting and ending anywhere in a word, past bit 31 too.
          const rows = [...Array.from({ length: lead }, () => [0, -1, -1] as const), ...cells]
          const n = rows.length
          const run: RunColumns = {
            status: Uint8Array.from(rows, ([s]) => s),
            bin: Int8Array.from(rows, ([, b]) => b),
            code: new Int16Array(n),
            num: new Float64Array(n),
            hasScores: false,
          }
          const gold = Int8Array.from(rows, ([, , g]) => g)
          const per = rows.map(([s, b, g]) => (s === ST_OK && g >= 0 && b >= 0 ? (b === g ? 1 : 0) : -1))
          expect(correctness(run, gold, runSpan(run))).toEqual(correctnessBits(per))
        },
      ),
      { seed: 17, numRuns: 300 },
    )
  })
})
