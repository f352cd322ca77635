import { z } from 'zod'
import type { BatchState } from '../providers/batch/types'
import type { Db } from '../store/connection'
import { now, parseJson } from '../store/repos/rows'
import { stmt } from '../store/statements'

/** All SQL on run_batches and run_batch_requests (migrations 0090 and 0130). */

/**
 * Whether request `r` was answered: its answer is not marked on the request row but read off the
 * call row that stores it, which names the request (`batch_request_id`) and is found through the
 * run's (run_id, call_key) key. One write per answer instead of two, and the two can never
 * disagree after a kill. A synchronous answer clears `batch_request_id`, so it never counts here.
 */
const ANSWERED = `EXISTS (SELECT 1 FROM run_calls c WHERE c.run_id = r.run_id AND c.call_key = r.call_key
  AND c.batch_request_id = r.id AND c.status = 'done')`

/** A request's state as every reader must see it: a stored `waiting` with its answer in is done. */
export const REQUEST_STATE = `CASE WHEN r.state = 'waiting' AND ${ANSWERED} THEN 'done' ELSE r.state END`

/** Requests of `r` still without a result (the condition REQUEST_STATE = 'waiting', cheaper). */
export const STILL_WAITING = `(r.state = 'waiting' AND NOT ${ANSWERED})`

export const BATCH_STATES = ['preparing', 'uploaded', 'submitting', 'submitted', 'ended', 'ingested'] as const
export type LocalBatchState = (typeof BATCH_STATES)[number]

export const Counts = z.object({
  total: z.number().int().default(0),
  succeeded: z.number().int().default(0),
  errored: z.number().int().default(0),
  processing: z.number().int().default(0),
})

export interface BatchRow {
  id: number
  runId: number
  provider: 'openai' | 'anthropic'
  state: LocalBatchState
  inputFileId: string | null
  providerBatchId: string | null
  providerStatus: string | null
  outputFileId: string | null
  errorFileId: string | null
  requests: number
  bytes: number
  counts: z.infer<typeof Counts>
  error: string | null
  adopted: boolean
  createdAt: string
  submitStartedAt: string | null
  submittedAt: string | null
  endedAt: string | null
}

interface Raw {
  id: number
  run_id: number
  provider: 'openai' | 'anthropic'
  state: LocalBatchState
  input_file_id: string | null
  provider_batch_id: string | null
  provider_status: string | null
  output_file_id: string | null
  error_file_id: string | null
  requests: number
  bytes: number
  counts: string
  error: string | null
  adopted: number
  created_at: string
  submit_started_at: string | null
  submitted_at: string | null
  ended_at: string | null
}

const toRow = (r: Raw): BatchRow => ({
  id: r.id,
  runId: r.run_id,
  provider: r.provider,
  state: r.state,
  inputFileId: r.input_file_id,
  providerBatchId: r.provider_batch_id,
  providerStatus: r.provider_status,
  outputFileId: r.output_file_id,
  errorFileId: r.error_file_id,
  requests: r.requests,
  bytes: r.bytes,
  counts: parseJson(Counts, r.counts, 'run_batches.counts'),
  error: r.error,
  adopted: r.adopted === 1,
  createdAt: r.created_at,
  submitStartedAt: r.submit_started_at,
  submittedAt: r.submitted_at,
  endedAt: r.ended_at,
})

export function listBatches(db: Db, runId: number): BatchRow[] {
  return (stmt(db, 'SELECT * FROM run_batches WHERE run_id = ? ORDER BY id').all(runId) as Raw[]).map(toRow)
}

export function getBatch(db: Db, id: number): BatchRow {
  const r = stmt(db, 'SELECT * FROM run_batches WHERE id = ?').get(id) as Raw | undefined
  if (!r) throw new Error(`No batch ${id}`)
  return toRow(r)
}

/** Provider ids this workspace has recorded, so a batch is never adopted twice. */
export function knownProviderIds(db: Db, provider: string): Set<string> {
  const rows = stmt(
    db,
    'SELECT provider_batch_id AS id FROM run_batches WHERE provider = ? AND provider_batch_id IS NOT NULL',
  ).all(provider) as { id: string }[]
  return new Set(rows.map((r) => r.id))
}

export interface NewRequest {
  customId: string
  callKey: string
  requestHash: string
  /** The call's record as run_calls keeps it: `{request, wire}`. */
  record: string
  /** Whether the request asks for a tool call (how its reply is read). */
  tool: boolean
}

/** A batch and its requests in one transaction: from here on its keys are never batched again. */
export function insertBatch(
  db: Db,
  b: { runId: number; provider: 'openai' | 'anthropic'; bytes: number },
  requests: (batchId: number) => NewRequest[],
): number {
  return db.transaction(() => {
    const id = Number(
      stmt(
        db,
        `INSERT INTO run_batches (run_id, provider, state, requests, bytes, created_at)
         VALUES (?, ?, 'preparing', 0, ?, ?)`,
      ).run(b.runId, b.provider, b.bytes, now()).lastInsertRowid,
    )
    const rows = requests(id)
    const ins = stmt(
      db,
      `INSERT INTO run_batch_requests (batch_id, custom_id, run_id, call_key, request_hash, tool, state)
       VALUES (?, ?, ?, ?, ?, ?, 'waiting')`,
    )
    const insRecord = stmt(db, 'INSERT INTO run_batch_request_records (request_id, record) VALUES (?, ?)')
    for (const r of rows) {
      const requestId = ins.run(
        id,
        r.customId,
        b.runId,
        r.callKey,
        r.requestHash,
        r.tool ? 1 : 0,
      ).lastInsertRowid
      insRecord.run(requestId, r.record)
    }
    stmt(db, 'UPDATE run_batches SET requests = ? WHERE id = ?').run(rows.length, id)
    return id
  })()
}

export interface StoredRequest {
  customId: string
  callKey: string
  requestHash: string
  record: string
  state: 'waiting' | 'done' | 'error' | 'retry' | 'unfinished'
}

export function batchRequests(db: Db, batchId: number): StoredRequest[] {
  return stmt(
    db,
    `SELECT r.custom_id AS customId, r.call_key AS callKey, r.request_hash AS requestHash, b.record,
       ${REQUEST_STATE} AS state
     FROM run_batch_requests r JOIN run_batch_request_records b ON b.request_id = r.id
     WHERE r.batch_id = ? ORDER BY r.id`,
  ).all(batchId) as StoredRequest[]
}

export function setRequestState(
  db: Db,
  batchId: number,
  customId: string,
  state: StoredRequest['state'],
): void {
  stmt(db, 'UPDATE run_batch_requests SET state = ? WHERE batch_id = ? AND custom_id = ?').run(
    state,
    batchId,
    customId,
  )
}

/** Keys of this run that sit in a batch the provider has not answered yet. */
export function waitingKeys(db: Db, runId: number): Set<string> {
  const rows = stmt(
    db,
    `SELECT call_key FROM run_batch_requests r WHERE run_id = ? AND ${STILL_WAITING}`,
  ).all(runId) as { call_key: string }[]
  return new Set(rows.map((r) => r.call_key))
}

/** How many times a key came back with an error worth another try (the sync engine's attempts). */
export function retriesOf(db: Db, runId: number, key: string): number {
  return (
    stmt(
      db,
      "SELECT COUNT(*) AS n FROM run_batch_requests WHERE run_id = ? AND call_key = ? AND state = 'retry'",
    ).get(runId, key) as { n: number }
  ).n
}

/** Requests that never got a result once their batch ended (expired, cancelled, missing). */
export function markUnanswered(db: Db, batchId: number): number {
  return stmt(
    db,
    `UPDATE run_batch_requests AS r SET state = 'unfinished' WHERE batch_id = ? AND ${STILL_WAITING}`,
  ).run(batchId).changes
}

export function setUploaded(db: Db, id: number, fileId: string | null): void {
  stmt(db, "UPDATE run_batches SET state = 'uploaded', input_file_id = ? WHERE id = ?").run(fileId, id)
}

export function setSubmitting(db: Db, id: number): void {
  stmt(db, "UPDATE run_batches SET state = 'submitting', submit_started_at = ? WHERE id = ?").run(now(), id)
}

/** Records what the provider says; `submitted` the first time it names the batch. */
export function recordState(db: Db, id: number, s: BatchState): void {
  const ended = s.phase === 'ended'
  stmt(
    db,
    `UPDATE run_batches SET provider_batch_id = ?, provider_status = ?, counts = ?, output_file_id = ?, error_file_id = ?,
       error = COALESCE(?, error), submitted_at = COALESCE(submitted_at, ?),
       state = CASE WHEN state IN ('preparing', 'uploaded', 'submitting', 'submitted') THEN ? ELSE state END,
       ended_at = CASE WHEN ? THEN COALESCE(ended_at, ?) ELSE ended_at END
     WHERE id = ?`,
  ).run(
    s.id,
    s.providerStatus,
    JSON.stringify(s.counts),
    s.outputFileId,
    s.errorFileId,
    s.error,
    now(),
    ended ? 'ended' : 'submitted',
    ended ? 1 : 0,
    now(),
    id,
  )
}

/** A batch found at the provider after an interruption, not named by the create call's reply. */
export function setAdopted(db: Db, id: number): void {
  stmt(db, 'UPDATE run_batches SET adopted = 1 WHERE id = ?').run(id)
}

export function setIngested(db: Db, id: number, error: string | null = null): void {
  stmt(
    db,
    "UPDATE run_batches SET state = 'ingested', error = COALESCE(?, error), ended_at = COALESCE(ended_at, ?) WHERE id = ?",
  ).run(error, now(), id)
}

/** Whether the run has a batch not yet brought to an end and read. */
export function hasOpenBatches(db: Db, runId: number): boolean {
  return (
    stmt(db, "SELECT 1 FROM run_batches WHERE run_id = ? AND state != 'ingested' LIMIT 1").get(runId) !==
    undefined
  )
}

/**
 * Runs left with a batch still open at the provider by a process that stopped without pausing
 * them (killed, or the app quit): resumed when a workspace's run engine starts, so results that
 * came in meanwhile are read without anyone asking.
 */
export function runsWithOpenBatches(db: Db): number[] {
  return (
    stmt(
      db,
      `SELECT DISTINCT b.run_id FROM run_batches b JOIN runs r ON r.id = b.run_id
       WHERE b.state != 'ingested' AND r.status IN ('running', 'queued') ORDER BY b.run_id`,
    ).all() as { run_id: number }[]
  ).map((r) => r.run_id)
}

/** What ingest needs of one request to match its result: everything but the record. */
export interface IndexedRequest {
  id: number
  callKey: string
  requestHash: string
  tool: boolean
  state: StoredRequest['state']
}

/** A batch's requests without their records, by custom_id, read in one pass. */
export function requestIndex(db: Db, batchId: number): Map<string, IndexedRequest> {
  const rows = stmt(
    db,
    `SELECT custom_id, id, call_key, request_hash, tool, ${REQUEST_STATE} FROM run_batch_requests r WHERE batch_id = ?`,
  ).raw(true)
  const out = new Map<string, IndexedRequest>()
  for (const [customId, id, callKey, requestHash, tool, state] of rows.all(batchId) as [
    string,
    number,
    string,
    string,
    number,
    StoredRequest['state'],
  ][])
    out.set(customId, { id, callKey, requestHash, tool: tool === 1, state })
  return out
}

/**
 * Sets the state of requests by id. Results mostly come back in the order the requests went out,
 * so the ids fall in a few unbroken runs: one statement per run, not one per request.
 */
export function setRequestStatesById(db: Db, ids: readonly number[], state: StoredRequest['state']): void {
  if (ids.length === 0) return
  const update = stmt(db, 'UPDATE run_batch_requests SET state = ? WHERE id BETWEEN ? AND ?')
  const sorted = Int32Array.from(ids).sort()
  let lo = sorted[0] as number
  let hi = lo
  for (let i = 1; i <= sorted.length; i++) {
    const id = sorted[i]
    if (id === hi + 1) hi = id
    else if (id !== hi) {
      update.run(state, lo, hi)
      if (id === undefined) break
      lo = id
      hi = id
    }
  }
}
