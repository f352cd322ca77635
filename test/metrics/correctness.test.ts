import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { correctness, sharedWords } from '../../src/main/metrics/correctness'
import { type RunColumns, runSpan, runSpanColumns, ST_OK } from '../../src/main/metrics/load'
import { correctnessBits, mcnemarBits } from '../../src/main/metrics/stats/mcnemar'

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
          expect(correctness(runSpanColumns(run), gold)).toEqual(correctnessBits(per))
        },
      ),
      { seed: 17, numRuns: 300 },
    )
  })

  it('give the same McNemar test read over the words where two runs’ spans meet as over all of them', () => {
    const run = fc.array(fc.tuple(fc.nat(3), fc.integer({ min: -1, max: 1 })), {
      maxLength: 200,
      size: 'max',
    })
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 1 }), { minLength: 300, maxLength: 300 }),
        run,
        fc.nat(100),
        run,
        fc.nat(100),
        (gold, cellsA, leadA, cellsB, leadB) => {
          const place = (cells: [number, number][], lead: number): RunColumns => {
            const status = new Uint8Array(gold.length)
            const bin = new Int8Array(gold.length).fill(-1)
            cells.forEach(([s, b], k) => {
              if (lead + k >= gold.length) return
              status[lead + k] = s
              bin[lead + k] = b
            })
            return {
              status,
              bin,
              code: new Int8Array(gold.length),
              num: new Float64Array(0),
              hasScores: false,
            }
          }
          const g = Int8Array.from(gold)
          const [a, b] = [place(cellsA, leadA), place(cellsB, leadB)]
          const [sa, sb] = [runSpan(a), runSpan(b)]
          const [ca, cb] = [correctness(runSpanColumns(a), g), correctness(runSpanColumns(b), g)]
          expect(mcnemarBits(ca, cb, sharedWords(sa, sb))).toEqual(mcnemarBits(ca, cb))
        },
      ),
      { seed: 19, numRuns: 300 },
    )
  })
})
