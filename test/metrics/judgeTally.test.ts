import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { candidateCells, clustersInCells } from '../../src/main/metrics/clusterTally'
import { correctness } from '../../src/main/metrics/correctness'
import { cellOf, FIRST_CELL, figuresByVariant, figuresOfCounts } from '../../src/main/metrics/figures'
import { tallyRun } from '../../src/main/metrics/judgeTally'
import { type SpanColumns, ST_NONE, ST_OK } from '../../src/main/metrics/runStatus'
import { confusionMatrix } from '../../src/main/metrics/stats/binary'

const boot = { seed: 3, replicates: 50 }

/**
 * The separate pass the tally took the candidates' cells over before (clustersOfRun): each
 * judged pair against gold counted into its candidate's cells, candidates listed per variant as
 * first met.
 */
function cellsPass(
  run: Pick<SpanColumns, 'from' | 'to' | 'status' | 'bin'>,
  t: { goldBin: Int8Array; variant: Uint16Array },
  { of, base, count }: { of: Int32Array; base: number; count: number },
  variants: number,
): { cells: Int32Array; touched: number[][] } {
  const cells = new Int32Array(count * 4)
  const touched: number[][] = Array.from({ length: variants }, () => [])
  for (let i = run.from; i < run.to; i++) {
    const k = i - run.from
    const j = run.bin[k]!
    const g = t.goldBin[i]!
    if (run.status[k] !== ST_OK || j < 0 || g < 0) continue
    const c = of[i]! - base
    const o = c * 4
    if (cells[o]! + cells[o + 1]! + cells[o + 2]! + cells[o + 3]! === 0) touched[t.variant[i]!]!.push(c)
    cells[o + cellOf(j, g) - FIRST_CELL]!++
  }
  return { cells, touched }
}

describe("a run's one-pass tally", () => {
  it("gives the figures, both confusion matrices, the correctness bits and the candidates' cells of the separate passes", () => {
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
            // A candidate lies in one variant (its number modulo the variants).
            candidate: fc.nat(30),
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
          // Targets outside the span belong to candidates of their own, as other items' do.
          const candidate = Int32Array.from({ length: n }, (_, i) => at(i)?.candidate ?? 100 + i)
          const variant = Uint16Array.from(candidate, (c) => c % variantCount)
          // The span columns, as a loader makes them: whatever lies outside carries no verdict.
          const run = {
            from: lead,
            to: lead + rows.length,
            status: Uint8Array.from(rows, (r) => r.status),
            bin: Int8Array.from(rows, (r) => (r.status === ST_NONE ? -1 : r.bin)),
            code: Int8Array.from(rows, (r) => (r.status === ST_NONE ? -1 : r.code)),
          }
          const variants = Array.from({ length: variantCount }, (_, v) => `v${v}`)
          const cands = candidateCells(candidate)
          const tally = tallyRun(run, { goldBin, goldCode, variant }, variantCount, labels, cands)
          const { from, to } = run
          // Each candidate's cells, and so the intervals over candidates, as the separate pass gave them;
          // the shared cells are left zeroed for the next run.
          const apart = cellsPass(run, { goldBin, variant }, cands, variantCount)
          expect(tally.touched).toEqual(apart.touched)
          const clusters = clustersInCells(cands.cells, tally.touched, boot)
          expect(cands.cells.every((x) => x === 0)).toBe(true)
          expect(clusters).toEqual(clustersInCells(apart.cells, apart.touched, boot))
          // Cells placed by candidate id or by a dense index: the same clusters either way.
          for (const byId of [true, false]) {
            const placed = candidateCells(candidate, byId)
            const again = tallyRun(run, { goldBin, goldCode, variant }, variantCount, labels, placed)
            expect(clustersInCells(placed.cells, again.touched, boot)).toEqual(clusters)
          }
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
