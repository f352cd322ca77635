import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type ChainNode,
  type EarlierKey,
  earlierKey,
  findEarlier,
  pathToLatest,
  placeEarlier,
} from '../../src/main/export/bundleChain'

/** A straight chain of versions, oldest first; ids 1, 2, …; the last text is the latest version. */
function chain(texts: readonly string[]): Map<number, ChainNode> {
  return new Map(
    texts.map((text, i) => [i + 1, { id: i + 1, text, supersededBy: i + 1 < texts.length ? i + 2 : null }]),
  )
}

/** Does what a merge does with a placement: new rows under the parent, newest first. */
function apply(
  nodes: Map<number, ChainNode>,
  latestId: number,
  key: EarlierKey,
): { id: number; made: number } {
  const placed = placeEarlier(nodes, latestId, key)
  if ('found' in placed) return { id: placed.found, made: 0 }
  let parent = placed.parent
  for (const text of placed.texts) {
    const id = Math.max(...nodes.keys()) + 1
    nodes.set(id, { id, text, supersededBy: parent })
    parent = id
  }
  return { id: parent, made: placed.texts.length }
}

/** The key of every earlier version of a straight chain, oldest first. */
const keysOf = (texts: readonly string[]) => texts.slice(0, -1).map((_, i) => earlierKey(texts.slice(i)))

const textsOf = (nodes: Map<number, ChainNode>, id: number) => pathToLatest(nodes, id).map((n) => n.text)

describe('naming an earlier unit version by content', () => {
  it('counts the repeats of its text between it and the latest version', () => {
    expect(earlierKey(['a', 'x', 'a', 'b'])).toEqual({ unit: 'a', newer: ['x', 'a'], occurrence: 1 })
    expect(earlierKey(['a', 'a'])).toEqual({ unit: 'a', newer: [], occurrence: 0 })
    expect(() => earlierKey(['a'])).toThrow(/needs a later one/)
  })

  it('finds the same version in a chain that took the same path', () => {
    const texts = ['a', 'x', 'a', 'b']
    const nodes = chain(texts)
    expect(keysOf(texts).map((k) => findEarlier(nodes, 4, k))).toEqual([1, 2, 3])
  })

  it('finds a version whose chain here skipped a wording in between', () => {
    // There: a → x → b. Here: a → b. The label on "a" belongs on this "a".
    expect(placeEarlier(chain(['a', 'b']), 2, earlierKey(['a', 'x', 'b']))).toEqual({ found: 1 })
  })

  it('recreates a missing wording under the nearest newer version this chain has', () => {
    // There: a → x → b. Here: a → b. The label on "x" needs an "x" just before "b".
    expect(placeEarlier(chain(['a', 'b']), 2, earlierKey(['x', 'b']))).toEqual({ parent: 2, texts: ['x'] })
    // There: y → a → b. Here: a → b. "y" goes under this "a".
    expect(placeEarlier(chain(['a', 'b']), 2, earlierKey(['y', 'a', 'b']))).toEqual({
      parent: 1,
      texts: ['y'],
    })
  })

  it('recreates the versions in between when a nearer parent would count the repeats wrongly', () => {
    // There: a → x → a → b; the label is on the first "a". Here: x → b. Hanging "a" under this
    // "x" would make it the first "a" before "b", not the second, and a second merge would miss it.
    const nodes = chain(['x', 'b'])
    expect(apply(nodes, 2, earlierKey(['a', 'x', 'a', 'b']))).toEqual({ id: 5, made: 3 })
    expect(textsOf(nodes, 5)).toEqual(['a', 'x', 'a', 'b'])
    expect(placeEarlier(nodes, 2, earlierKey(['a', 'x', 'a', 'b']))).toEqual({ found: 5 })
  })

  it('refuses a chain that loops instead of hanging', () => {
    const loop = new Map<number, ChainNode>([
      [1, { id: 1, text: 'a', supersededBy: 2 }],
      [2, { id: 2, text: 'b', supersededBy: 1 }],
    ])
    expect(() => pathToLatest(loop, 1)).toThrow(/loops back on itself/)
  })

  it('places every version of any chain on a version with its text, and a second pass makes nothing', () => {
    const text = fc.constantFrom('a', 'b', 'c')
    const sentAndOrder = fc.array(text, { minLength: 2, maxLength: 7 }).chain((sent) =>
      fc.tuple(
        fc.constant(sent),
        // Labels arrive in any order: a bundle is ordered by row id on the sending side.
        fc.shuffledSubarray([...Array(sent.length - 1).keys()], { minLength: sent.length - 1 }),
      ),
    )
    fc.assert(
      fc.property(sentAndOrder, fc.array(text, { maxLength: 5 }), ([sent, order], hereOlder) => {
        const nodes = chain([...hereOlder, sent.at(-1)!])
        const latestId = hereOlder.length + 1
        const keys = keysOf(sent)
        const first = new Map(order.map((i) => [i, apply(nodes, latestId, keys[i]!).id]))
        for (const [i, id] of first) {
          const here = textsOf(nodes, id)
          expect(here.at(-1)).toBe(sent.at(-1))
          expect(earlierKey(here)).toMatchObject({ unit: keys[i]!.unit, occurrence: keys[i]!.occurrence })
        }
        const size = nodes.size
        for (const [i, id] of first) expect(apply(nodes, latestId, keys[i]!)).toEqual({ id, made: 0 })
        expect(nodes.size).toBe(size)
      }),
    )
  })

  it('makes nothing when both sides share the whole chain', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 2, maxLength: 7 }), (texts) => {
        const nodes = chain(texts)
        keysOf(texts).forEach((k, i) => {
          expect(placeEarlier(nodes, texts.length, k)).toEqual({ found: i + 1 })
        })
      }),
    )
  })
})
