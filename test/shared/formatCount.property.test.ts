import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countOf, formatCount } from '../../src/shared/plural'

// The counts every screen and the CLI print stay the characters toLocaleString('en') gave before
// formatCount grouped whole numbers itself (kept here as the oracle).
const oracle = (n: number) => n.toLocaleString('en')

describe('formatCount', () => {
  it('writes every whole number as toLocaleString("en") does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -1_000_000, max: 1_000_000 }),
          fc.maxSafeInteger(),
          fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
          fc.constantFrom(0, 1, 999, 1000, 999_999, 1_000_000, -1000, Number.MAX_SAFE_INTEGER),
        ),
        (n) => {
          expect(formatCount(n)).toBe(oracle(n))
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('leaves fractions, -0, huge and non-finite numbers to toLocaleString', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(formatCount(n)).toBe(oracle(n))
      }),
      { numRuns: 2000 },
    )
    for (const n of [-0, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, 1234.5678])
      expect(formatCount(n)).toBe(oracle(n))
  })

  it('groups a million targets as a person reads them', () => {
    expect(formatCount(1_000_000)).toBe('1,000,000')
    expect(countOf(12_345, 'unit')).toBe('12,345 units')
  })
})
