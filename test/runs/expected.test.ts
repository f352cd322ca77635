import { describe, expect, it } from 'vitest'
import { callCost } from '../../src/main/providers/models'
import { type ExpectedInput, expectedCost } from '../../src/main/runs/expected'
import { standingTakeover } from '../../src/main/runs/leaseRules'
import { templateWords } from '../../src/main/runs/templateWords'

const prices = {
  input: 3,
  output: 15,
  batchDiscount: 0.5,
  cacheRead: null,
  cacheWrite: null,
  cacheReadRatio: 0.1,
  cacheWriteRatio: 1.25,
}
const usage = { promptTokens: 1000, completionTokens: 200, cacheReadTokens: 400, cacheWriteTokens: 0 }
const base: ExpectedInput = {
  cost: 1,
  mode: 'sync',
  prices,
  planned: 10,
  made: 4,
  waiting: 0,
  answered: { n: 4, usage },
  promptTokens: null,
}

describe('expected cost of a run under way', () => {
  it('prices each call left as a made call is priced: cache reads at theirs, less the batch discount in a batch', () => {
    expect(expectedCost(base).expectedCost).toBeCloseTo(1 + 6 * callCost(prices, usage), 12)
    expect(expectedCost({ ...base, mode: 'batch' }).expectedCost).toBeCloseTo(
      1 + 6 * callCost(prices, usage, true),
      12,
    )
    expect(expectedCost({ ...base, mode: 'batch' }).expectedBasis).toBe(
      '6 calls left of 10 planned calls, each at the average tokens of the 4 calls answered so far, at the batch price',
    )
  })

  it('counts requests waiting in a batch among the calls left, even beyond the plan', () => {
    expect(expectedCost({ ...base, planned: 5, waiting: 3 }).expectedBasis).toMatch(/^3 calls left of 5/)
  })

  it('before any answer, prices the prompt only and says it is a rough guess that may go either way', () => {
    const x = expectedCost({ ...base, cost: 0, made: 0, answered: { n: 0, usage }, promptTokens: 500.4 })
    expect(x.expectedCost).toBeCloseTo(10 * callCost(prices, { promptTokens: 500, completionTokens: 0 }), 12)
    expect(x.expectedBasis).toBe(
      "10 calls left of 10 planned calls, each at about 500 prompt tokens at the run's prices; a rough guess from the size of the requests, with no reply counted yet, so the cost may come out above or below it",
    )
  })

  it('gives no made-up figure without a price, a plan or an estimate', () => {
    expect(expectedCost({ ...base, prices: { ...prices, input: 0, output: 0 } })).toEqual({
      expectedCost: null,
      expectedBasis: '6 calls left of 10 planned calls, not priced: the model has no price entered',
    })
    expect(expectedCost({ ...base, planned: null }).expectedBasis).toBe(
      'not known yet: the run plans its calls when it starts',
    )
    expect(expectedCost({ ...base, answered: { n: 0, usage } }).expectedBasis).toBe(
      '6 calls left of 10 planned calls; not known before the first call is answered',
    )
    expect(expectedCost({ ...base, made: 10 })).toEqual({
      expectedCost: 1,
      expectedBasis: 'no calls left: the cost so far',
    })
  })
})

describe('what a run says of itself', () => {
  it('shows a takeover only while the run is under way', () => {
    expect(standingTakeover('paused', 'took over run 3 from the app')).toBe('took over run 3 from the app')
    expect(standingTakeover('running', 'took over run 3 from the app')).toBe('took over run 3 from the app')
    expect(standingTakeover('done', 'took over run 3 from the app')).toBeNull()
    expect(standingTakeover('cancelled', 'took over run 3 from the app')).toBeNull()
  })

  it('names the template versions a run sends and any newer one', () => {
    expect(templateWords({ used: [{ name: 'faaf', version: 2 }], latest: { faaf: 2 } })).toBe(
      'every call uses faaf v2, as when the run was created',
    )
    expect(
      templateWords({
        used: [
          { name: 'dcr.dce', version: 1 },
          { name: 'dcr.amc', version: null },
        ],
        latest: { 'dcr.dce': 3, 'dcr.amc': 1 },
      }),
    ).toBe(
      'every call uses dcr.dce v1, dcr.amc (built-in), as when the run was created; edited since (dcr.dce is now v3), which applies to new runs only',
    )
    expect(templateWords({ used: [], latest: {} })).toBeNull()
  })
})
