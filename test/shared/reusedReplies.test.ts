import { describe, expect, it } from 'vitest'
import { costSplitText } from '../../src/shared/costSplit'
import { callWords } from '../../src/shared/runCalls'
import { runCostText } from '../../src/shared/runNames'

/*
 * FactLab's reused replies and the provider's prompt cache are two things. A run row read
 * "165 of 165 calls (0 cached)" beside "15,602 cache read": the reply count must not say "cache".
 */
const counts = (calls: number, cached: number, callErrors = 0) => ({
  status: 'done',
  calls,
  cached,
  callErrors,
  totalCalls: calls + cached + callErrors,
})

describe('calls answered with a reused reply', () => {
  it('are counted as replies reused, never as "cached", beside a split that counts cache reads', () => {
    const calls = callWords(counts(150, 12, 3))
    expect(calls).toBe('165 of 165 calls (12 replies reused, 3 failed)')
    const split = costSplitText(
      {
        uncached: { tokens: 900, cost: null },
        cacheRead: { tokens: 15_602, cost: null },
        cacheWrite: { tokens: 0, cost: null },
        output: { tokens: 40, cost: null },
      },
      String,
    )
    expect(split).toContain('15,602 cache read')
    expect(calls).not.toMatch(/cache/)
  })

  it('say nothing in brackets when no reply was reused and no call failed, and one reply in the singular', () => {
    expect(callWords(counts(165, 0))).toBe('165 of 165 calls')
    expect(callWords(counts(0, 0, 3))).toBe('3 of 3 calls (3 failed)')
    expect(callWords(counts(4, 1))).toBe('5 of 5 calls (1 reply reused)')
  })

  it('a run whose every reply was reused says it sent nothing, in its calls and beside its cost', () => {
    expect(callWords(counts(0, 30))).toBe('30 of 30 calls, all replies reused, nothing sent')
    const cost = runCostText({ ...counts(0, 30), cost: 0, costBasis: 'run' }, (x) => x.toFixed(4))
    expect(cost).toBe('0.0000 (all replies reused, nothing sent)')
  })
})
