import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { correctness } from '../../src/main/metrics/correctness'
import { figuresByVariant, figuresOfCounts } from '../../src/main/metrics/figures'
import { tallyRun } from '../../src/main/metrics/judgeTally'
import { ST_NONE } from '../../src/main/metrics/runStatus'
import { confusionMatrix } from '../../src/main/metrics/stats/binary'

const boot = { seed: 3, replicates: 50 }

describe("a run's one-pass tally", () => {
  it('gives the figures, both confusion matrices and the correctness bits of the separate passes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.array(
          fc.record({
            // Statuses none, ok, N/A, error; binary codes −1 (none) … 1; label codes −1 … 4
            // (past the schema's labels too, as a schema edited after judging leaves them).
            status: fc.nat(3),
            bin: fc.integer({ min: -1, max: 1 }),
            code: fc.integer({ min: -1, max: 4 }),
            goldBin: fc.integer({ min: -1, max: 1 }),
            goldCode: fc.integer({ min: -1, max: 4 }),
            variant: fc.nat(3),
          }),
          { maxLength: 200, size: 'max' },
        ),
        fc.nat(70),
        fc.nat(70),
        (variantCount, labels, rows, lead, tail) => {
          const n = lead + rows.length + tail
          const at = (i: number) => (i >= lead && i < lead + rows.length ? rows[i - lead] : undefined)
          const goldBin = Int8Array.from({ length: n }, (_, i) => at(i)?.goldBin ?? -1)
          const goldCode = Int16Array.from({ length: n }, (_, i) => at(i)?.goldCode ?? -1)
          const variant = Uint16Array.from({ length: n }, (_, i) => (at(i)?.variant ?? 0) % variantCount)
          // The span columns, as a loader makes them: whatever lies outside carries no verdict.
          const run = {
            from: lead,
            to: lead + rows.length,
            status: Uint8Array.from(rows, (r) => r.status),
            bin: Int8Array.from(rows, (r) => (r.status === ST_NONE ? -1 : r.bin)),
            code: Int8Array.from(rows, (r) => (r.status === ST_NONE ? -1 : r.code)),
          }
          const variants = Array.from({ length: variantCount }, (_, v) => `v${v}`)
          const tally = tallyRun(run, { goldBin, goldCode, variant }, variantCount, labels)
          const { from, to } = run
          expect(figuresOfCounts(tally.counts, variants, boot)).toEqual(
            figuresByVariant(
              run.bin,
              goldBin.subarray(from, to),
              run.status,
              variant.subarray(from, to),
              variants,
              boot,
            ),
          )
          expect(tally.binary).toEqual(confusionMatrix(run.bin, goldBin.subarray(from, to), 2))
          expect(tally.full).toEqual(confusionMatrix(run.code, goldCode.subarray(from, to), labels))
          expect(tally.correct).toEqual(correctness(run, goldBin))
        },
      ),
      { seed: 23, numRuns: 300 },
    )
  })
})
