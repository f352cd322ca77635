import type { Db } from '../store/connection'
import { percentileOf } from './stats/spread'

export interface RunCost {
  calls: number
  promptTokens: number
  completionTokens: number
  cost: number
  wallSeconds: number | null
  latencyP50: number | null
  latencyP95: number | null
  /** Answered through a provider batch API (cost at batch price). */
  batch: boolean
}

interface RunKey {
  id: number
  provider: string
  model: string
}

/**
 * Calls, tokens, money and time per run. Money is what the calls recorded; where they recorded
 * none (prices entered after the run), the model's current user-entered prices are applied.
 */
export function runCosts(db: Db, runs: readonly RunKey[]): Map<number, RunCost> {
  const sums = db.prepare(
    `SELECT COUNT(*) AS calls, COALESCE(SUM(prompt_tokens), 0) AS pt, COALESCE(SUM(completion_tokens), 0) AS ct,
       COALESCE(SUM(cost), 0) AS cost, COALESCE(MAX(via_batch), 0) AS batch FROM run_calls WHERE run_id = ? AND status = 'done'`,
  )
  const latencies = db
    .prepare(
      "SELECT latency_ms FROM run_calls WHERE run_id = ? AND status = 'done' AND latency_ms IS NOT NULL AND cached = 0",
    )
    .pluck()
  const times = db.prepare(
    `SELECT (julianday(finished_at) - julianday(started_at)) * 86400.0 AS wall FROM runs WHERE id = ?`,
  )
  const price = db.prepare(
    `SELECT price_input_per_mtok AS pin, price_output_per_mtok AS pout, batch_discount AS off FROM models
     WHERE provider = ? AND model = ? ORDER BY base_url LIMIT 1`,
  )
  const out = new Map<number, RunCost>()
  for (const r of runs) {
    const s = sums.get(r.id) as { calls: number; pt: number; ct: number; cost: number; batch: number }
    let cost = s.cost
    if (cost === 0 && s.pt + s.ct > 0) {
      const p = price.get(r.provider, r.model) as { pin: number; pout: number; off: number } | undefined
      if (p) cost = ((s.pt * p.pin + s.ct * p.pout) / 1e6) * (s.batch ? 1 - p.off : 1)
    }
    const lat = latencies.all(r.id) as number[]
    const wall = (times.get(r.id) as { wall: number | null } | undefined)?.wall ?? null
    out.set(r.id, {
      calls: s.calls,
      promptTokens: s.pt,
      completionTokens: s.ct,
      cost,
      wallSeconds: wall,
      latencyP50: percentileOf(lat, 50),
      latencyP95: percentileOf(lat, 95),
      batch: s.batch === 1,
    })
  }
  return out
}
