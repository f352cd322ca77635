import { describe, expect, it } from 'vitest'
import { type PricedTokens, type RunPrices, runMoney } from '../../src/main/runs/pricing'
import { unitFitProblem } from '../../src/main/runs/unitFit'

const prices = (input: number, output: number): RunPrices => ({
  input,
  output,
  batchDiscount: 0.5,
  cacheRead: null,
  cacheWrite: null,
  cacheReadRatio: 0.1,
  cacheWriteRatio: 1.25,
})

/** A million tokens of each sort, a sync part and a batch part. */
const tokens: PricedTokens = {
  sync: { prompt: 3_000_000, completion: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000 },
  batch: { prompt: 1_000_000, completion: 1_000_000, cacheRead: 0, cacheWrite: 0 },
}

describe('which price a run gets', () => {
  it('a run keeps what its calls recorded at the prices it was made with, whatever the model costs now', () => {
    expect(runMoney(prices(1, 5), 0.42, tokens, () => prices(9, 9))).toEqual({ cost: 0.42, basis: 'run' })
  })

  it('a run made with no price is priced at its model’s prices now: cache reads and writes at theirs, batch calls at the discount', () => {
    // sync: 1M plain × 2 + 1M read × 0.2 + 1M write × 2.5 + 1M out × 10; batch: (1M × 2 + 1M × 10) / 2
    expect(runMoney(prices(0, 0), 0, tokens, () => prices(2, 10))).toEqual({
      cost: 2 + 0.2 + 2.5 + 10 + 6,
      basis: 'model',
    })
  })

  it('a run with no price then or now reads as unpriced, not as free', () => {
    expect(runMoney(prices(0, 0), 0, tokens, () => prices(0, 0))).toEqual({ cost: 0, basis: 'none' })
  })
})

describe('a method and the units of a dataset', () => {
  const base = { method: 'dcr', needs: ['sentence'] as const, outcome: 'no run was created' }
  it('fits when the slice has units the method judges', () => {
    expect(
      unitFitProblem({ ...base, inSlice: ['sentence'], inDataset: ['sentence'], sliced: false }),
    ).toBeNull()
  })
  it('says when only the chosen part of the dataset lacks them', () => {
    expect(unitFitProblem({ ...base, inSlice: [], inDataset: ['fact', 'sentence'], sliced: true })).toBe(
      'dcr judges sentences, and the chosen variants or items have none (the dataset has them elsewhere); no run was created',
    )
  })
  it('names every kind the dataset has', () => {
    expect(unitFitProblem({ ...base, inSlice: [], inDataset: ['fact', 'triplet'], sliced: false })).toMatch(
      /^dcr judges sentences, and this dataset has facts and triplets only; no run was created\. To run dcr, split/,
    )
  })
})
