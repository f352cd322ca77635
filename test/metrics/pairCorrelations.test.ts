import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { kendallTauB, pearson, spearman } from '../../src/main/metrics/stats/correlation'
import {
  type Coefficients,
  pairCoefficients,
  preparePairColumns,
} from '../../src/main/metrics/stats/pairCorrelations'
import {
  preparePairs,
  weightedKendallTauB,
  weightedPearson,
  weightedSpearman,
} from './oracle/weightedCorrelation'

/**
 * The bootstrap weighs each pair by how often a resample drew it; the weighted figures must be
 * exactly those of the resample written out pair by pair, and bit for bit those of the
 * pair-by-pair implementation they replaced (the oracle).
 */
const pairs = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
  { minLength: 1, maxLength: 25 },
)

const close = (a: number | null, b: number | null) => {
  if (b === null) expect(a).toBeNull()
  else expect(a).toBeCloseTo(b, 9)
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v)

function coefficients(x: number[], y: number[], w: ArrayLike<number>) {
  const out: Coefficients = { pearson: 0, spearman: 0, kendallTauB: 0 }
  pairCoefficients(preparePairColumns(x, y), w, out)
  return {
    pearson: orNull(out.pearson),
    spearman: orNull(out.spearman),
    kendallTauB: orNull(out.kendallTauB),
  }
}

describe('pair correlations', () => {
  it('equal the plain coefficients on the sample expanded by the weights', () => {
    fc.assert(
      fc.property(pairs, (ps) => {
        const w = ps.map((q) => q[2])
        const got = coefficients(
          ps.map((q) => q[0] / 5),
          ps.map((q) => q[1]),
          w,
        )
        const x: number[] = []
        const y: number[] = []
        ps.forEach((q, i) => {
          for (let k = 0; k < w[i]!; k++) {
            x.push(q[0] / 5)
            y.push(q[1])
          }
        })
        close(got.kendallTauB, kendallTauB(x, y))
        close(got.pearson, x.length < 2 ? null : pearson(x, y))
        close(got.spearman, x.length < 2 ? null : spearman(x, y))
      }),
      { numRuns: 200 },
    )
  })

  it('with every weight 1 give the plain figures (ties included)', () => {
    const x = [1, 2, 2, 3, 5, 5, 8]
    const y = [2, 1, 1, 4, 3, 5, 5]
    const got = coefficients(
      x,
      y,
      x.map(() => 1),
    )
    close(got.pearson, pearson(x, y))
    close(got.spearman, spearman(x, y))
    close(got.kendallTauB, kendallTauB(x, y))
  })

  // Values as item scores take them (shares of a few units, many ties) and as free numbers
  // (ROUGE, numeric means: nearly all distinct, negative, zero of either sign).
  const share = fc.integer({ min: 0, max: 6 }).map((k) => k / 6)
  const free = fc.oneof(
    fc.double({ min: -1e3, max: 1e3, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 1 / 3, 0.1),
  )
  const weighted = (value: fc.Arbitrary<number>) =>
    fc.array(fc.tuple(value, value, fc.nat({ max: 4 })), { minLength: 0, maxLength: 60 })

  it('equal the pair-by-pair oracle to the last digit, whatever the weights and ties', () => {
    fc.assert(
      fc.property(fc.oneof(weighted(share), weighted(free)), (ps) => {
        const x = ps.map((q) => q[0])
        const y = ps.map((q) => q[1])
        const w = Int32Array.from(ps, (q) => q[2])
        const old = preparePairs(x, y)
        const got = coefficients(x, y, w)
        expect(Object.is(got.pearson, weightedPearson(old, w))).toBe(true)
        expect(Object.is(got.spearman, weightedSpearman(old, w))).toBe(true)
        expect(Object.is(got.kendallTauB, weightedKendallTauB(old, w))).toBe(true)
      }),
      { numRuns: 400 },
    )
  })

  it('refuse a NaN instead of ranking it nowhere', () => {
    expect(() => preparePairColumns([0, Number.NaN, 1], [1, 2, 3])).toThrow(/NaN/)
  })
})
