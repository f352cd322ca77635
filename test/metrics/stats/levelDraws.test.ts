import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LevelDraws } from '../../../src/main/metrics/stats/levelDraws'
import { summaryLevelIntervals, systemLevelIntervals } from '../../../src/main/metrics/stats/levelIntervals'
import { documentCoefficients, type ScoredResponse } from '../../../src/main/metrics/stats/levels'
import * as oracle from '../oracle/levelIntervals'

/**
 * The summary and system levels now draw their resamples once for every correlation line with as
 * many documents and systems, and keep the human side's sums for lines over the same people's
 * scores. The intervals a person reads, and which of them are left out as too uncertain, must be
 * those each line got on its own before (test/metrics/oracle/levelIntervals.ts), to the last digit.
 */

/** Scores from a few levels (ties, constant sides: intervals left out) or anywhere (none). */
const score = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom(0, 0.5, 1, -0, 1 / 3),
  fc.double({ min: -100, max: 100, noNaN: true }),
  fc.constantFrom(1e16, -1e16, 0.1),
)

/** Rows of one dataset: which responses there are, and the people's score of each. */
const dataset = fc.integer({ min: 0, max: 25 }).chain((docs) =>
  fc.array(
    fc.record({
      item: fc.integer({ min: 0, max: docs }),
      variant: fc.constantFrom('A', 'B', 'C', 'D'),
      human: score,
    }),
    { maxLength: 120 },
  ),
)

/**
 * Lines over the dataset as build.ts makes them: judges over the same responses and the same
 * people's scores (the usual case, where the human sums are shared), judges that missed some
 * responses, and lines against other people's scores.
 */
const lines = (rows: { item: number; variant: string; human: number }[]) =>
  fc.array(
    fc.record({
      judge: fc.array(score, { minLength: rows.length, maxLength: rows.length }),
      kept: fc.oneof(
        fc.constant(null),
        fc.array(fc.boolean(), { minLength: rows.length, maxLength: rows.length }),
      ),
      otherHuman: fc.oneof(
        fc.constant(null),
        fc.array(score, { minLength: rows.length, maxLength: rows.length }),
      ),
    }),
    { minLength: 1, maxLength: 6 },
  )

function lineRows(
  rows: { item: number; variant: string; human: number }[],
  l: { judge: number[]; kept: boolean[] | null; otherHuman: number[] | null },
): ScoredResponse[] {
  return rows
    .map((r, i) => ({ ...r, judge: l.judge[i]!, human: l.otherHuman?.[i] ?? r.human }))
    .filter((_, i) => l.kept?.[i] ?? true)
}

describe('level intervals with draws shared across correlation lines', () => {
  it('are those each line got on its own, with the same lines left without an interval', () => {
    fc.assert(
      fc.property(
        dataset.chain((rows) => fc.tuple(fc.constant(rows), lines(rows))),
        fc.boolean(),
        fc.integer({ min: 1, max: 1000 }),
        fc.constantFrom(1, 7, 40),
        fc.constantFrom(undefined, 0, 50),
        ([rows, ls], byItem, seed, replicates, keepAtMost) => {
          const base = byItem ? [...rows].sort((a, b) => a.item - b.item) : rows
          const boot = { seed, replicates }
          // keepAtMost 0: every count too large to keep, so each line draws afresh.
          const shared = new LevelDraws(boot, keepAtMost)
          for (const l of ls) {
            const r = lineRows(base, l)
            expect(systemLevelIntervals(r, boot, shared)).toEqual(oracle.systemLevelIntervals(r, boot))
            const docs = documentCoefficients(r)
            expect(summaryLevelIntervals(docs, boot, shared)).toEqual(
              oracle.summaryLevelIntervals(docs, boot),
            )
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('ignore draws kept for another seed or count of resamples', () => {
    const rows: ScoredResponse[] = [0, 1, 2, 3, 4, 5].flatMap((d) =>
      ['A', 'B', 'C'].map((v, k) => ({
        item: d,
        variant: v,
        judge: (d * 7 + k * 3) % 5,
        human: (d + k) % 4,
      })),
    )
    const other = new LevelDraws({ seed: 2, replicates: 30 })
    systemLevelIntervals(rows, { seed: 2, replicates: 30 }, other)
    summaryLevelIntervals(documentCoefficients(rows), { seed: 2, replicates: 30 }, other)
    const boot = { seed: 9, replicates: 200 }
    const want = oracle.systemLevelIntervals(rows, boot)
    expect(want.pearson).not.toBeNull()
    expect(systemLevelIntervals(rows, boot, other)).toEqual(want)
    expect(summaryLevelIntervals(documentCoefficients(rows), boot, other)).toEqual(
      oracle.summaryLevelIntervals(documentCoefficients(rows), boot),
    )
  })

  it('keep no human sums for one line that another line over other people could take', () => {
    const rows = (shift: number): ScoredResponse[] =>
      [0, 1, 2, 3, 4, 5, 6, 7].flatMap((d) =>
        ['A', 'B', 'C'].map((v, k) => ({
          item: d,
          variant: v,
          judge: (d + k) % 3,
          human: (d * k + shift) % 5,
        })),
      )
    const boot = { seed: 4, replicates: 100 }
    const shared = new LevelDraws(boot)
    for (const shift of [0, 1, 0, 2, 1])
      expect(systemLevelIntervals(rows(shift), boot, shared)).toEqual(
        oracle.systemLevelIntervals(rows(shift), boot),
      )
  })
})
