import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { medianInPlace } from '../../src/main/projects/medianInPlace'

/** The sorting median the dashboard used before: the reference. */
function sortedMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const s = Float64Array.from(values).sort()
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

const seconds = fc.oneof(
  fc.integer({ min: 1, max: 5 }),
  fc.double({ min: 0.001, max: 3600, noNaN: true }),
  fc.constant(Number.POSITIVE_INFINITY),
)

describe('the median of a stretch of seconds, by selection', () => {
  it('is the number sorting gives, for any stretch (runs of equal seconds too)', () => {
    fc.assert(
      fc.property(fc.array(seconds, { maxLength: 300 }), fc.nat(), fc.nat(), (values, x, y) => {
        const from = values.length === 0 ? 0 : x % (values.length + 1)
        const to = from + (values.length === 0 ? 0 : y % (values.length - from + 1))
        const a = Float64Array.from(values)
        expect(medianInPlace(a, from, to)).toBe(sortedMedian(values.slice(from, to)))
        // Only the stretch is reordered: the rest stays where it was.
        for (let i = 0; i < values.length; i++) if (i < from || i >= to) expect(a[i]).toBe(values[i])
      }),
      { numRuns: 500 },
    )
  })

  it('has no median of nothing', () => {
    expect(medianInPlace(new Float64Array(0))).toBeNull()
  })
})
