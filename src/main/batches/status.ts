import { getRun, runSummary } from '../runs/repo'
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
  const avg = db
    .prepare(
      'SELECT AVG(cost) AS a FROM run_calls WHERE run_id = ? AND via_batch = 1 AND status = ? AND cached = 0',
    )
    .get(runId, 'done') as { a: number | null }
  const p = run.config.prices
  const perRequest = (record: string) =>
    avg.a ?? ((Buffer.byteLength(record) / 4) * p.input * (1 - p.batchDiscount)) / 1_000_000
  const outstanding = waitingRows.reduce((n, r) => n + perRequest(r.request), 0)
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
      errored: b.counts.errored,
      processing: b.state === 'ingested' ? 0 : b.counts.processing || (b.providerBatchId ? 0 : b.requests),
      createdAt: b.createdAt,
      endedAt: b.endedAt,
      error: b.error,
    })),
    waiting: waitingRows.length,
    cost: summary.cost,
    expectedCost: summary.cost + outstanding,
  }
}
