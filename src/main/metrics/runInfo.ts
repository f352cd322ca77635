import type { CostSplit } from '../../shared/costSplit'
import { callSums, runCostSplit, runMoneyOf, storedPricing } from '../runs/cost'
import type { CostBasis } from '../runs/pricing'
import type { Db } from '../store/connection'
import { percentileOf } from './stats/spread'

export interface RunCost {
  calls: number
  promptTokens: number
  completionTokens: number
  /** Of the prompt tokens, those read from and written to the provider's prompt cache. */
  cacheReadTokens: number
  cacheWriteTokens: number
  cost: number
  /** The tokens by the price each was paid at, with their money (shared/costSplit.ts). */
  costSplit: CostSplit
  /** Where `cost` comes from (runs/pricing.ts): the run's own prices, its model's entered since, or none. */
  costBasis: CostBasis
  wallSeconds: number | null
  latencyP50: number | null
  latencyP95: number | null
  /** Of `calls`, those answered through a provider batch, at the batch price. */
  batchCalls: number
  /** How the run was made to go: call by call, or through the provider's batch API. */
  mode: 'sync' | 'batch'
}

interface RunKey {
  id: number
  provider: string
  model: string
  /** The config frozen into the run (its prices, base URL and mode). */
  config: string
}

/**
 * Calls, tokens, money and time per run. Calls, tokens and money are the run summary's own
 * (runs/cost.ts), so the Compare view, reports and `metrics` say what `judge status` and the
 * Judges view say.
 */
export function runCosts(db: Db, runs: readonly RunKey[]): Map<number, RunCost> {
  const latencies = db
    .prepare(
      "SELECT latency_ms FROM run_calls WHERE run_id = ? AND status = 'done' AND latency_ms IS NOT NULL AND cached = 0",
    )
    .pluck()
  const times = db.prepare(
    `SELECT (julianday(finished_at) - julianday(started_at)) * 86400.0 AS wall FROM runs WHERE id = ?`,
  )
  const out = new Map<number, RunCost>()
  for (const r of runs) {
    const pricing = storedPricing(r)
    const s = callSums(db, r.id)
    const money = runMoneyOf(db, pricing, s)
    const lat = latencies.all(r.id) as number[]
    const wall = (times.get(r.id) as { wall: number | null } | undefined)?.wall ?? null
    out.set(r.id, {
      calls: s.calls,
      promptTokens: s.pt,
      completionTokens: s.ct,
      cacheReadTokens: s.crt,
      cacheWriteTokens: s.cwt,
      cost: money.cost,
      costSplit: runCostSplit(db, pricing, s),
      costBasis: money.basis,
      wallSeconds: wall,
      latencyP50: percentileOf(lat, 50),
      latencyP95: percentileOf(lat, 95),
      batchCalls: s.bcalls,
      mode: pricing.mode,
    })
  }
  return out
}

const costsOfRuns = new WeakMap<readonly RunKey[], Map<number, RunCost>>()

/**
 * runCosts of a snapshot's runs, worked out once for that list: a cold load works them out while
 * it waits for the label blocks (snapshotInBackground.ts), and the figures find them there. A
 * snapshot's list of runs is never used once the workspace has changed (snapshot.ts).
 */
export function snapshotRunCosts(db: Db, runs: readonly RunKey[]): Map<number, RunCost> {
  let costs = costsOfRuns.get(runs)
  if (!costs) {
    costs = runCosts(db, runs)
    costsOfRuns.set(runs, costs)
  }
  return costs
}

/**
 * Runs of these that made no call of their own, every answer coming from the response cache:
 * a replay of an earlier run, not an independent repeat, so it would pull a spread toward 0.
 */
export function replayRuns(db: Db, runIds: readonly number[]): Set<number> {
  const out = new Set<number>()
  for (const id of runIds) {
    const s = callSums(db, id)
    if (s.cached > 0 && s.calls === 0 && s.callErrors === 0) out.add(id)
  }
  return out
}
