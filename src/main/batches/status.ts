import { batchRefused } from '../../shared/batchWords'
import { callCost } from '../providers/models'
import { runPricesNow } from '../runs/cost'
import { callsMade, getRun, type RunSummary, runSummary } from '../runs/repo'
import type { Db } from '../store/connection'
import { type BatchRow, listBatches } from './repo'

export interface BatchInfo {
  id: number
  providerBatchId: string | null
  state: BatchRow['state']
  providerStatus: string | null
  requests: number
  succeeded: number
  errored: number
  processing: number
  createdAt: string
  endedAt: string | null
  error: string | null
}

export interface BatchStatus {
  runId: number
  mode: 'sync' | 'batch'
  status: string
  batches: BatchInfo[]
  /** Requests sent and not yet answered. */
  waiting: number
  /** Money spent so far (batch price), and that plus an estimate for the requests still out. */
  cost: number
  expectedCost: number
  /** Calls made so far (answered, from the cache or failed) and the calls the run plans. */
  callsMade: number
  totalCalls: number | null
  calls: number
  cached: number
  callErrors: number
  promptTokens: number
  completionTokens: number
}

/**
 * A call-by-call run's calls still to make, each at the average cost of its calls so far. Calls
 * from the cache cost nothing and are not in the average; before any call it is not known (0).
 */
function syncOutstanding(s: RunSummary, totalCalls: number | null): number {
  if (totalCalls === null || s.calls === 0) return 0
  const left = Math.max(0, totalCalls - callsMade(s))
  return (left * s.cost) / s.calls
}

/**
 * A run's batches with the provider's counts, and the cost it is heading for: what finished calls
 * cost plus, for each request still out, the average cost of a finished batch call (or, before
 * any has finished, its prompt at the batch input price).
 */
export function batchStatus(db: Db, runId: number): BatchStatus {
  const run = getRun(db, runId)
  const summary = runSummary(db, runId)
  const batches = listBatches(db, runId)
  const waitingRows = db
    .prepare(`SELECT b.record AS request FROM run_batch_requests r JOIN run_batch_request_records b ON b.request_id = r.id
       WHERE r.run_id = ? AND r.state = 'waiting'`)
    .all(runId) as { request: string }[]
  // The average finished batch call's tokens, priced as the run's cost is (runs/pricing.ts), so a
  // run created before its model had a price is not expected to cost nothing.
  const avg = db
    .prepare(
      `SELECT COUNT(*) AS n, AVG(prompt_tokens) AS pt, AVG(completion_tokens) AS ct,
         AVG(cache_read_tokens) AS crt, AVG(cache_write_tokens) AS cwt
       FROM run_calls WHERE run_id = ? AND via_batch = 1 AND status = ? AND cached = 0`,
    )
    .get(runId, 'done') as { n: number; pt: number; ct: number; crt: number; cwt: number }
  const p = runPricesNow(db, run.config)
  const average =
    avg.n > 0
      ? callCost(
          p,
          {
            promptTokens: avg.pt,
            completionTokens: avg.ct,
            cacheReadTokens: avg.crt,
            cacheWriteTokens: avg.cwt,
          },
          true,
        )
      : null
  const perRequest = (record: string) =>
    average ?? ((Buffer.byteLength(record) / 4) * p.input * (1 - p.batchDiscount)) / 1_000_000
  const made = callsMade(summary)
  const outstanding =
    run.config.mode === 'batch'
      ? waitingRows.reduce((n, r) => n + perRequest(r.request), 0)
      : syncOutstanding(summary, run.totalCalls)
  return {
    runId,
    mode: run.config.mode,
    status: run.status,
    batches: batches.map((b) => ({
      id: b.id,
      providerBatchId: b.providerBatchId,
      state: b.state,
      providerStatus: b.providerStatus,
      requests: b.requests,
      succeeded: b.counts.succeeded,
      // A batch the provider never took has no counts of its own: every request of it failed.
      errored: batchRefused(b) ? b.requests : b.counts.errored,
      processing: b.state === 'ingested' ? 0 : b.counts.processing || (b.providerBatchId ? 0 : b.requests),
      createdAt: b.createdAt,
      endedAt: b.endedAt,
      error: b.error,
    })),
    waiting: waitingRows.length,
    cost: summary.cost,
    expectedCost: summary.cost + outstanding,
    callsMade: made,
    totalCalls: run.totalCalls,
    calls: summary.calls,
    cached: summary.cached,
    callErrors: summary.callErrors,
    promptTokens: summary.prompt_tokens,
    completionTokens: summary.completion_tokens,
  }
}
