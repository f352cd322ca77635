import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseAssignments } from '../../src/main/projects/assignmentsPacked'

describe('a fixed plan’s assignments read as one row of text', () => {
  it('come back as the pairs SQLite joined, every digit in place', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 99_999 })), {
          maxLength: 200,
        }),
        (pairs) => {
          const text = pairs.map(([i, a]) => `${i},${a}`).join(',')
          const read = parseAssignments(text, pairs.length)
          expect([...read.item]).toEqual(pairs.map((p) => p[0]))
          expect([...read.annotator]).toEqual(pairs.map((p) => p[1]))
        },
      ),
    )
  })

  it('refuse text that does not hold as many as the workspace counts', () => {
    expect(() => parseAssignments('12,3,14', 2)).toThrow('Read 1.5 assignments where the workspace holds 2')
  })
})
