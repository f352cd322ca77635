import { z } from 'zod'
import type { CostSplit } from '../../shared/costSplit'
import { getModel } from '../providers/models'
import type { Db } from '../store/connection'
import { RunConfig } from './config'
import {
  type CostBasis,
  costSplitOf,
  effectivePrices,
  type PricedTokens,
  pricesOf,
  type RunPrices,
  runMoney,
  splitPrices,
} from './pricing'

/**
 * What a run's calls add up to: the one reading of `run_calls` behind every screen's calls,
 * tokens and money (run summary, `judge status`, the Judges view, metrics and Compare), so no two
 * of them can count differently.
 *
 * - `calls`: calls the provider answered (cache hits and failed calls are counted apart);
 * - `cached`: calls answered from the response cache, free and not sent;
 * - `callErrors`: calls that failed after their retries (nothing answered them);
 * - tokens are those of the answered calls, cache hits excluded (they were not paid for).
 */
export interface CallSums {
  calls: number
  attempts: number
  cached: number
  callErrors: number
  repairs: number
  pt: number
  ct: number
  crt: number
  cwt: number
  /** Of the calls and tokens above, those answered through a provider batch. */
  bcalls: number
  bpt: number
  bct: number
  bcrt: number
  bcwt: number
  /** Money the calls recorded, at the prices frozen into the run. */
  cost: number
  timed: number
}

export function callSums(db: Db, runId: number): CallSums {
  return db
    .prepare(
      `SELECT COALESCE(SUM(cached = 0 AND status = 'done'), 0) AS calls, COALESCE(SUM(attempts), 0) AS attempts,
         COALESCE(SUM(cached), 0) AS cached,
         COALESCE(SUM(status = 'error'), 0) AS callErrors,
         COALESCE(SUM(cached = 0 AND status = 'done' AND call_key LIKE '%:repair'), 0) AS repairs,
         COALESCE(SUM(CASE WHEN cached = 0 THEN prompt_tokens END), 0) AS pt,
         COALESCE(SUM(CASE WHEN cached = 0 THEN completion_tokens END), 0) AS ct,
         COALESCE(SUM(CASE WHEN cached = 0 THEN cache_read_tokens END), 0) AS crt,
         COALESCE(SUM(CASE WHEN cached = 0 THEN cache_write_tokens END), 0) AS cwt,
         COALESCE(SUM(cached = 0 AND status = 'done' AND via_batch = 1), 0) AS bcalls,
         COALESCE(SUM(CASE WHEN cached = 0 AND via_batch = 1 THEN prompt_tokens END), 0) AS bpt,
         COALESCE(SUM(CASE WHEN cached = 0 AND via_batch = 1 THEN completion_tokens END), 0) AS bct,
         COALESCE(SUM(CASE WHEN cached = 0 AND via_batch = 1 THEN cache_read_tokens END), 0) AS bcrt,
         COALESCE(SUM(CASE WHEN cached = 0 AND via_batch = 1 THEN cache_write_tokens END), 0) AS bcwt,
         COALESCE(SUM(cost), 0) AS cost,
         COALESCE(SUM(cached = 0 AND latency_ms IS NOT NULL), 0) AS timed
       FROM run_calls WHERE run_id = ?`,
    )
    .get(runId) as CallSums
}

function pricedTokens(s: CallSums): PricedTokens {
  return {
    sync: {
      prompt: s.pt - s.bpt,
      completion: s.ct - s.bct,
      cacheRead: s.crt - s.bcrt,
      cacheWrite: s.cwt - s.bcwt,
    },
    batch: { prompt: s.bpt, completion: s.bct, cacheRead: s.bcrt, cacheWrite: s.bcwt },
  }
}

/**
 * A run's money by the rule of pricing.ts: what its calls recorded, or, for a run created with no
 * price, its tokens at the prices its own provider, model and base URL have now.
 */
export function runMoneyOf(
  db: Db,
  config: Pick<RunConfig, 'provider' | 'model' | 'baseUrl' | 'prices'>,
  sums: CallSums,
): { cost: number; basis: CostBasis } {
  return runMoney(config.prices, sums.cost, pricedTokens(sums), () =>
    pricesOf(getModel(db, config.provider, config.model, config.baseUrl)),
  )
}

/**
 * A run's tokens by the price each was paid at, with each part's money at the prices its cost is
 * reckoned at (the rule above), for every screen that shows the cost beside it.
 */
export function runCostSplit(
  db: Db,
  config: Pick<RunConfig, 'provider' | 'model' | 'baseUrl' | 'prices'>,
  sums: CallSums,
): CostSplit {
  const prices = splitPrices(config.prices, sums.cost, () =>
    pricesOf(getModel(db, config.provider, config.model, config.baseUrl)),
  )
  return costSplitOf(prices, pricedTokens(sums))
}

/** The prices a run's calls count at now (pricing.ts): the engine prices each new call with them. */
export function runPricesNow(
  db: Db,
  config: Pick<RunConfig, 'provider' | 'model' | 'baseUrl' | 'prices'>,
): RunPrices {
  return effectivePrices(config.prices, () =>
    pricesOf(getModel(db, config.provider, config.model, config.baseUrl)),
  )
}

/** What pricing reads of a run: its model, where it was asked, its prices and its mode. */
export type RunPricing = Pick<RunConfig, 'provider' | 'model' | 'baseUrl' | 'prices' | 'mode'>

const StoredPricing = z.object({
  baseUrl: z.string().nullable().default(null),
  prices: RunConfig.shape.prices.prefault({ input: 0, output: 0 }),
  mode: z.enum(['sync', 'batch']).catch('sync').default('sync'),
})

/**
 * A run's pricing from its stored row, for readers that hold the row rather than the run (the
 * metrics snapshot). Imported runs and bare configs have no prices; their calls' money stands.
 */
export function storedPricing(row: { provider: string; model: string; config: string }): RunPricing {
  let raw: unknown = {}
  try {
    raw = JSON.parse(row.config)
  } catch {
    raw = {}
  }
  const parsed = StoredPricing.safeParse(raw)
  const p = parsed.success ? parsed.data : StoredPricing.parse({})
  return { provider: row.provider as RunConfig['provider'], model: row.model, ...p }
}
