import { describe, expect, it } from 'vitest'
import { chainsOfVariants, findingOf, type RaiChain, raiCurve } from '../../src/main/metrics/stats/rai'

const I = 'inconsistent'
const C = 'consistent'
const U = 'unscored'

describe('findingOf', () => {
  it('never lets a sentence without a verdict make a candidate inconsistent', () => {
    expect(findingOf([null, true])).toBe(C)
    expect(findingOf([null, false])).toBe(I)
    expect(findingOf([null, null])).toBe(U)
    expect(findingOf([])).toBe(U)
  })
})

describe('raiCurve: the improvement rate of DCR’s RAI, by hand', () => {
  // The audit's case: 10 originals inconsistent. Round 1: 2 rewrites fail, 6 are consistent,
  // 1 gets no verdict at all, 1 stays inconsistent. Round 2: that one is corrected.
  const chains: RaiChain[] = [
    ...Array.from({ length: 6 }, (): RaiChain => [I, C]),
    [I, null],
    [I, null],
    [I, U],
    [I, I, C],
    [C], // consistent from the start: in no denominator
    [U], // no verdict on the original: not inconsistent
  ]

  it('counts every inconsistent candidate of the round, failed and unscored rewrites as not corrected', () => {
    const [r1] = raiCurve(chains, 1)
    // 6 / 10, not 6 / 8 (the rewrites made) nor 7 / 8.
    expect(r1).toEqual({
      round: 1,
      inconsistent: 10,
      corrected: 6,
      failed: 2,
      unscored: 1,
      rate: 0.6,
      originals: 10,
      correctedSoFar: 6,
      cumulativeRate: 0.6,
    })
  })

  it('gives each round’s own rate beside the cumulative share of the originals', () => {
    const [, r2] = raiCurve(chains, 2)
    // Round 2 rewrites the one leftover and corrects it: 1 / 1 of the round, 7 / 10 cumulative.
    expect(r2).toMatchObject({ round: 2, inconsistent: 1, corrected: 1, failed: 0, rate: 1 })
    expect(r2).toMatchObject({ originals: 10, correctedSoFar: 7, cumulativeRate: 0.7 })
  })

  it('has no rate when nothing was inconsistent', () => {
    expect(raiCurve([[C], [U]], 1)).toEqual([
      {
        round: 1,
        inconsistent: 0,
        corrected: 0,
        failed: 0,
        unscored: 0,
        rate: null,
        originals: 0,
        correctedSoFar: 0,
        cumulativeRate: null,
      },
    ])
  })
})

describe('chainsOfVariants', () => {
  it('lines rewrites up with their original by item and base variant; a missing rewrite is none', () => {
    const { chains, rounds } = chainsOfVariants([
      { item: 1, variant: 'answer', finding: I },
      { item: 1, variant: 'answer+rai1', finding: I },
      { item: 1, variant: 'answer+rai2', finding: C },
      { item: 2, variant: 'answer', finding: I },
      { item: 2, variant: 'poor+rai1', finding: C }, // another variant's rewrite, without its original
      { item: 3, variant: 'answer', finding: I },
      { item: 3, variant: 'answer+rai1', finding: C },
    ])
    expect(rounds).toBe(2)
    expect(chains).toEqual([[I, I, C], [I], [I, C]])
    const curve = raiCurve(chains, rounds)
    expect(curve[0]).toMatchObject({ inconsistent: 3, corrected: 1, failed: 1, rate: 1 / 3 })
    expect(curve[1]).toMatchObject({
      inconsistent: 1,
      corrected: 1,
      correctedSoFar: 2,
      cumulativeRate: 2 / 3,
    })
  })
})
