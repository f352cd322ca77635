import { expect, it } from 'vitest'
import {
  costSplitOf,
  type PricedTokens,
  type RunPrices,
  splitPrices,
  tokensCost,
} from '../../src/main/runs/pricing'
import { costSplitFromJson, costSplitJson, costSplitText, splitIsEmpty } from '../../src/shared/costSplit'

const prices: RunPrices = {
  input: 3,
  output: 15,
  batchDiscount: 0.5,
  cacheRead: null,
  cacheWrite: null,
  cacheReadRatio: 0.1,
  cacheWriteRatio: 1.25,
}

// 10 calls call by call, 10 through a batch: prompt tokens include the cache reads and writes.
const tokens: PricedTokens = {
  sync: { prompt: 100_000, completion: 2_000, cacheRead: 60_000, cacheWrite: 10_000 },
  batch: { prompt: 50_000, completion: 1_000, cacheRead: 30_000, cacheWrite: 0 },
}

it('splits the tokens by price, each part priced as the calls were, adding up to the cost', () => {
  const s = costSplitOf(prices, tokens)
  expect(s.uncached.tokens).toBe(150_000 - 90_000 - 10_000)
  expect(s.cacheRead.tokens).toBe(90_000)
  expect(s.cacheWrite.tokens).toBe(10_000)
  expect(s.output.tokens).toBe(3_000)
  // Uncached: 30,000 at $3 in full and 20,000 at half; reads at a tenth of $3, the batch's at half.
  expect(s.uncached.cost).toBeCloseTo((30_000 * 3 + 20_000 * 1.5) / 1e6, 12)
  expect(s.cacheRead.cost).toBeCloseTo((60_000 * 0.3 + 30_000 * 0.15) / 1e6, 12)
  expect(s.cacheWrite.cost).toBeCloseTo((10_000 * 3.75) / 1e6, 12)
  const sum = s.uncached.cost! + s.cacheRead.cost! + s.cacheWrite.cost! + s.output.cost!
  expect(sum).toBeCloseTo(tokensCost(prices, tokens), 12)
})

it('says the parts in one set of words, with money only where a price is known', () => {
  const s = costSplitOf(prices, tokens)
  expect(costSplitText(s, (x) => x.toFixed(4))).toBe(
    'tokens by price: 50,000 uncached (0.1200) · 90,000 cache read (0.0225) · 10,000 cache write (0.0375) · 3,000 output (0.0375)',
  )
  const unpriced = costSplitOf(null, tokens)
  expect(costSplitText(unpriced, (x) => x.toFixed(4))).toBe(
    'tokens by price: 50,000 uncached · 90,000 cache read · 10,000 cache write · 3,000 output',
  )
  expect(costSplitFromJson(costSplitJson(s))).toEqual(s)
  const none = { prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 }
  expect(splitIsEmpty(costSplitOf(prices, { sync: none, batch: none }))).toBe(true)
  expect(splitIsEmpty(s)).toBe(false)
})

it('prices the split as the cost is priced: own prices, else those entered since, else none', () => {
  const unset: RunPrices = { ...prices, input: 0, output: 0 }
  expect(splitPrices(prices, 0, () => unset)).toBe(prices)
  expect(splitPrices(unset, 0, () => prices)).toBe(prices)
  expect(splitPrices(unset, 0, () => unset)).toBeNull()
  // Money the calls carry with no price behind it (an imported run): the parts cannot be priced.
  expect(splitPrices(unset, 0.25, () => prices)).toBeNull()
})
