import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keysAtRanks } from '../../src/main/metrics/timeRanks'

/** The members sorted outright by (time, index), and the key at each rank. */
function reference(time: Float64Array, members: Int32Array, ranks: readonly number[]) {
  const sorted = Array.from(members).sort((a, b) => time[a]! - time[b]! || a - b)
  return new Map(ranks.map((r) => [r, { time: time[sorted[r]!]!, index: sorted[r]! }]))
}

// Whole milliseconds as label times are, bunched (many ties, a few far outliers) or spread; long
// enough lists that the buckets, not the outright sort of a short list, find most ranks.
const time = fc.oneof(
  fc.constantFrom(1_767_261_600_000, 1_767_261_600_001, 1_767_348_000_000),
  fc.integer({ min: 1_767_261_600_000, max: 1_767_261_600_000 + 5_000 }),
  fc.integer({ min: 0, max: 253_402_300_799_999 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
)
const times = fc
  .tuple(fc.nat(1500), fc.array(time, { minLength: 1, maxLength: 4 }))
  .chain(([n, pool]) => fc.array(fc.oneof(fc.constantFrom(...pool), time), { minLength: n, maxLength: n }))

describe('keys at ranks', () => {
  it('finds the key a full sort by time, then index, puts at each rank', () => {
    fc.assert(
      fc.property(
        times,
        fc.array(fc.boolean(), { minLength: 1500, maxLength: 1500 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { maxLength: 12 }),
        fc.integer({ min: 2, max: 16 }),
        (values, keep, at, bits) => {
          const time = Float64Array.from(values)
          const members = Int32Array.from(values.flatMap((_, i) => ((keep[i] ?? true) ? [i] : [])))
          const ranks = members.length === 0 ? [] : at.map((x) => Math.floor(x * members.length))
          expect(keysAtRanks(time, members, ranks, bits)).toEqual(reference(time, members, ranks))
        },
      ),
      { seed: 11, numRuns: 300 },
    )
  })

  it('refuses a rank outside the members', () => {
    expect(() => keysAtRanks(Float64Array.of(1, 2), Int32Array.of(0, 1), [2])).toThrow(RangeError)
  })
})
