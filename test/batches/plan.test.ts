import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitByLimits } from '../../src/main/batches/plan'

describe('splitByLimits', () => {
  it('keeps order, drops nothing, and no group breaks a limit unless one line alone does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 500 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 2_000 }),
        (sizes, maxRequests, maxBytes) => {
          const groups = splitByLimits(sizes, { maxRequests, maxBytes })
          expect(groups.flat()).toEqual(sizes.map((_, i) => i))
          for (const g of groups) {
            expect(g.length).toBeLessThanOrEqual(maxRequests)
            const bytes = g.reduce((n, i) => n + (sizes[i] ?? 0) + 1, 0)
            if (g.length > 1) expect(bytes).toBeLessThanOrEqual(maxBytes)
          }
        },
      ),
    )
  })
})
