import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { kendallTauB, pearson, spearman } from '../../../src/main/metrics/stats/correlation'
import {
  type DocumentCoefficients,
  documentCoefficients,
  groups,
  type ScoredResponse,
} from '../../../src/main/metrics/stats/levels'
import { SHORT } from '../../../src/main/metrics/stats/smallCorrelations'

/**
 * The summary level's per-document coefficients (levels.ts) are worked out over typed arrays
 * without a copy per document; the figures a person reads must not move by a digit. The oracle
 * is the implementation they replaced, kept here as it was.
 */
function oracle(rows: readonly ScoredResponse[]): DocumentCoefficients {
  const out: DocumentCoefficients = { pearson: [], spearman: [], kendallTauB: [], leftOut: 0 }
  const byDoc = [...groups(rows, (r) => r.item)].sort((a, b) => a[0] - b[0])
  for (const [, list] of byDoc) {
    const x = list.map((r) => r.judge)
    const y = list.map((r) => r.human)
    const p = pearson(x, y)
    const s = spearman(x, y)
    const k = kendallTauB(x, y)
    if (p === null || s === null || k === null) {
      out.leftOut++
      continue
    }
    out.pearson.push(p)
    out.spearman.push(s)
    out.kendallTauB.push(k)
  }
  return out
}

/** Scores from a few levels (ties, constant documents) or anywhere in a range (none). */
const score = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom(0, 0.5, 1, -0),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 0, max: 1, noNaN: true }),
  // Magnitudes far apart, where the compensated sum's correction decides the last digits.
  fc.constantFrom(1e16, -1e16, 3.3, 1e-3),
)

const response = (docs: number) =>
  fc.record({
    item: fc.integer({ min: 0, max: docs }),
    variant: fc.constantFrom('A', 'B', 'C', 'D'),
    judge: score,
    human: score,
  })

describe('per-document coefficients of the summary level', () => {
  it('are those of the previous implementation to the last digit, on random documents in any order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }).chain((docs) => fc.array(response(docs), { maxLength: 200 })),
        (rows) => {
          expect(documentCoefficients(rows)).toEqual(oracle(rows))
        },
      ),
      { numRuns: 400 },
    )
  })

  it('are unchanged for documents longer than the short path takes', () => {
    fc.assert(
      fc.property(fc.array(response(2), { minLength: SHORT, maxLength: 4 * SHORT }), (rows) => {
        expect(documentCoefficients(rows)).toEqual(oracle(rows))
      }),
      { numRuns: 100 },
    )
  })

  it('a document whose judge is constant is left out and counted', () => {
    const rows: ScoredResponse[] = [
      { item: 2, variant: 'A', judge: 1, human: 1 },
      { item: 1, variant: 'A', judge: 1, human: 0 },
      { item: 2, variant: 'B', judge: 2, human: 3 },
      { item: 1, variant: 'B', judge: 1, human: 1 },
    ]
    const d = documentCoefficients(rows)
    expect(d.leftOut).toBe(1)
    expect(d.kendallTauB).toEqual([1])
    expect(d.pearson[0]).toBeCloseTo(1, 12)
    expect(d.spearman[0]).toBeCloseTo(1, 12)
  })
})
