import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildLabelColumns, goldCodes, goldCodesWithout } from '../../../src/main/metrics/stats/labelColumns'

/**
 * Humans as judges compare each annotator with the gold everyone else makes; under the default
 * majority that gold is worked out again only where the annotator labelled. It must be the gold
 * computed afresh with them left out, tie for tie.
 */
describe('gold without one annotator', () => {
  it('is the strict majority of the others, stored gold still winning', () => {
    const labels = ['true', 'false', 'not_clear']
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.nat(11), fc.integer({ min: 1, max: 5 }), fc.constantFrom(...labels)), {
          selector: ([t, a]) => `${t}:${a}`,
          maxLength: 50,
        }),
        fc.array(fc.integer({ min: -1, max: 2 }), { minLength: 12, maxLength: 12 }),
        (rows, storedCodes) => {
          const indexOf = Int32Array.from({ length: 12 }, (_, i) => i)
          const sorted = [...rows].sort((x, y) => x[0] - y[0] || x[1] - y[1])
          const l = buildLabelColumns(12, sorted, indexOf, labels)
          const stored = Int32Array.from(storedCodes)
          const all = goldCodes(l, stored, -1)
          for (let a = 0; a <= 6; a++)
            expect(goldCodesWithout(l, stored, all, a)).toEqual(goldCodes(l, stored, a))
        },
      ),
    )
  })
})
