import type { CostSplit } from '../../shared/costSplit'
import { hasPrices } from '../../shared/priceSet'
import { type CallPrices, callCost, callCostParts, type ModelEntry } from '../providers/models'
import type { RunConfig } from './config'

/*
 * How a run is priced: one rule, pure, read by every screen that shows a run's money (the run
 * summary and `judge status`, the Judges view, metrics and the Compare view, reports).
 *
 * A run keeps the prices its model had when the run was created: later changes to a price never
 * rewrite what a run cost. A run created while its model had no price at all would otherwise read
 * as free for ever, so it takes the prices entered since for the same provider, model and base
 * URL, applied to its own calls' tokens exactly as the calls would have been priced: uncached
 * prompt tokens, cache reads and cache writes at their prices, completion tokens at the output
 * price, calls answered through a provider batch less the batch discount. Cache hits cost nothing.
 */

export type RunPrices = RunConfig['prices']

/**
 * Where a run's cost comes from: `run`, the prices frozen when it was created; `model`, the run
 * had none and its model's prices entered since are applied; `none`, no price then or now, so a
 * cost of 0 means "not known", not "free".
 */
export type CostBasis = 'run' | 'model' | 'none'

/**
 * What cache reads and writes cost relative to the input price when the price table has no
 * figure of its own: OpenAI bills cached prompt tokens at half (no write charge); Anthropic
 * bills reads at a tenth and five-minute cache writes at a quarter more.
 */
const CACHE_RATIOS: Record<string, { cacheReadRatio: number; cacheWriteRatio: number }> = {
  openai: { cacheReadRatio: 0.5, cacheWriteRatio: 1 },
  anthropic: { cacheReadRatio: 0.1, cacheWriteRatio: 1.25 },
}
const SAME_AS_INPUT = { cacheReadRatio: 1, cacheWriteRatio: 1 }

/** A model entry's prices as a run freezes them (with the provider's cache ratios). */
export function pricesOf(model: ModelEntry): RunPrices {
  return {
    input: model.priceInputPerMTok,
    output: model.priceOutputPerMTok,
    batchDiscount: model.batchDiscount,
    cacheRead: model.priceCacheReadPerMTok,
    cacheWrite: model.priceCacheWritePerMTok,
    ...(CACHE_RATIOS[model.provider] ?? SAME_AS_INPUT),
  }
}

// Whether any price was entered (0 is "not entered"): the rule the model panel reads too.
export { hasPrices }

/** Tokens of the calls that reached the provider (cache hits excluded), split by how they went. */
export interface PricedTokens {
  sync: TokenSums
  batch: TokenSums
}
export interface TokenSums {
  /** Every prompt token, cache reads and writes included. */
  prompt: number
  completion: number
  cacheRead: number
  cacheWrite: number
}

/** Money for a run's tokens at `prices`, summed as its calls would each have been priced. */
const usage = (s: TokenSums) => ({
  promptTokens: s.prompt,
  completionTokens: s.completion,
  cacheReadTokens: s.cacheRead,
  cacheWriteTokens: s.cacheWrite,
})

export function tokensCost(prices: RunPrices, t: PricedTokens): number {
  const p: CallPrices = prices
  return callCost(p, usage(t.sync)) + callCost(p, usage(t.batch), true)
}

/**
 * A run's money under the rule above: `recorded` is what its calls recorded (at the run's own
 * prices); `modelNow` the prices its model has now, asked for only when the run has none and its
 * calls recorded no money.
 */
export function runMoney(
  own: RunPrices,
  recorded: number,
  tokens: PricedTokens,
  modelNow: () => RunPrices,
): { cost: number; basis: CostBasis } {
  // Calls that recorded money of their own (imported runs, the demo's) keep it.
  if (hasPrices(own) || recorded > 0) return { cost: recorded, basis: 'run' }
  const later = modelNow()
  if (!hasPrices(later)) return { cost: recorded, basis: 'none' }
  return { cost: tokensCost(later, tokens), basis: 'model' }
}

/** The prices a run's calls are counted at by the rule above (its own, else its model's now). */
export function effectivePrices(own: RunPrices, modelNow: () => RunPrices): RunPrices {
  return hasPrices(own) ? own : modelNow()
}

/**
 * The prices a run's cost split is worked at, by the rule of runMoney: its own; else, while its
 * calls recorded no money, its model's entered since. Null where no price is known, or where the
 * calls carry money of their own with no price behind it (imported runs, the demo's): their
 * tokens cannot be told apart by price.
 */
export function splitPrices(own: RunPrices, recorded: number, modelNow: () => RunPrices): RunPrices | null {
  if (hasPrices(own)) return own
  if (recorded > 0) return null
  const later = modelNow()
  return hasPrices(later) ? later : null
}

/**
 * A run's tokens by the price each was paid at, and each part's money at `prices` (null parts
 * where none is known): the batch's share less the discount, so the parts add up to tokensCost.
 */
export function costSplitOf(prices: RunPrices | null, t: PricedTokens): CostSplit {
  const sum = (k: keyof TokenSums) => t.sync[k] + t.batch[k]
  const tokens = {
    uncached: Math.max(0, sum('prompt') - sum('cacheRead') - sum('cacheWrite')),
    cacheRead: sum('cacheRead'),
    cacheWrite: sum('cacheWrite'),
    output: sum('completion'),
  }
  const money = (k: keyof typeof tokens): number | null => {
    if (prices === null) return null
    return callCostParts(prices, usage(t.sync))[k] + callCostParts(prices, usage(t.batch), true)[k]
  }
  return {
    uncached: { tokens: tokens.uncached, cost: money('uncached') },
    cacheRead: { tokens: tokens.cacheRead, cost: money('cacheRead') },
    cacheWrite: { tokens: tokens.cacheWrite, cost: money('cacheWrite') },
    output: { tokens: tokens.output, cost: money('output') },
  }
}
