import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { kendallTauB, pearson, spearman } from '../../src/main/metrics/stats/correlation'
import {
  preparePairs,
  weightedKendallTauB,
  weightedPearson,
  weightedSpearman,
} from '../../src/main/metrics/stats/weightedCorrelation'

/**
 * The bootstrap weighs each pair by how often a resample drew it; the weighted figures must be
 * exactly those of the resample written out pair by pair.
 */
const pairs = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
  { minLength: 1, maxLength: 25 },
)

const close = (a: number | null, b: number | null) => {
  if (b === null) expect(a).toBeNull()
  else expect(a).toBeCloseTo(b, 9)
}

describe('weighted correlation', () => {
  it('equals the plain coefficients on the sample expanded by the weights', () => {
    fc.assert(
      fc.property(pairs, (ps) => {
        const p = preparePairs(
          ps.map((q) => q[0] / 5),
          ps.map((q) => q[1]),
        )
        const w = ps.map((q) => q[2])
        const x: number[] = []
        const y: number[] = []
        ps.forEach((q, i) => {
          for (let k = 0; k < w[i]!; k++) {
            x.push(q[0] / 5)
            y.push(q[1])
          }
        })
        close(weightedKendallTauB(p, w), kendallTauB(x, y))
        close(weightedPearson(p, w), x.length < 2 ? null : pearson(x, y))
        close(weightedSpearman(p, w), x.length < 2 ? null : spearman(x, y))
      }),
      { numRuns: 200 },
    )
  })

  it('with every weight 1 gives the plain figures (ties included)', () => {
    const x = [1, 2, 2, 3, 5, 5, 8]
    const y = [2, 1, 1, 4, 3, 5, 5]
    const p = preparePairs(x, y)
    const ones = x.map(() => 1)
    close(weightedPearson(p, ones), pearson(x, y))
    close(weightedSpearman(p, ones), spearman(x, y))
    close(weightedKendallTauB(p, ones), kendallTauB(x, y))
  })
})
