import { CALL_UPSERT } from '../runs/repo'
import type { Db } from '../store/connection'
import { stmt } from '../store/statements'
import type { IndexedRequest } from './repo'

/**
 * The run_calls rows of batch answers: one per result, as a synchronous run keeps one per call,
 * with the request record left on its batch request (migration 0130) and the reply in its chunk
 * of replies (migration 0150).
 */

/** What a batch answer cost, as its call row keeps it. */
interface CallUsage {
  promptTokens: number
  completionTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  cost: number
}

export interface BatchCall extends CallUsage {
  status: 'done' | 'error'
  /** Where the reply is kept (migration 0150): its chunk of replies and line; null for an error. */
  reply: { chunk: number; line: number } | null
  error: string | null
  finishedAt: string
}

/** A call answered by its batch, as `insertDoneBatchCalls` stores it. */
export interface DoneBatchCall extends CallUsage {
  req: IndexedRequest
  /** Where its reply is kept: the chunk of replies and the line in it. */
  chunk: number
  line: number
}

/** A batch call's upsert: its reply stays where the request and chunk it names keep it. */
const UPSERT = `${CALL_UPSERT} batch_request_id = excluded.batch_request_id,
    reply_chunk = excluded.reply_chunk, reply_line = excluded.reply_line`

const DONE_CALLS_INSERT = `INSERT INTO run_calls (run_id, call_key, status, request_hash, request, response, cached, attempts,
    latency_ms, prompt_tokens, completion_tokens, cost, error, finished_at,
    cache_read_tokens, cache_write_tokens, via_batch, batch_request_id, reply_chunk, reply_line)
  SELECT ?, value->>0, 'done', NULL, NULL, NULL, 0, 1, NULL, value->>1, value->>2, value->>3, NULL, ?,
    value->>4, value->>5, 1, value->>6, value->>7, value->>8 FROM json_each(?) WHERE true
  ${UPSERT}
  RETURNING id, call_key`

/**
 * The calls of a transaction's replies, all answered, with one statement over a JSON array: bound
 * row by row, the values cost about as much as the insert. Returns each key's call id. A cost
 * JSON cannot carry (not finite) sends the chunk row by row.
 */
export function insertDoneBatchCalls(
  db: Db,
  runId: number,
  finishedAt: string,
  calls: readonly DoneBatchCall[],
): Map<string, number> {
  const ids = new Map<string, number>()
  if (calls.every((c) => Number.isFinite(c.cost))) {
    const rows = calls.map((c) => [
      c.req.callKey,
      c.promptTokens,
      c.completionTokens,
      c.cost,
      c.cacheReadTokens,
      c.cacheWriteTokens,
      c.req.id,
      c.chunk,
      c.line,
    ])
    const out = stmt(db, DONE_CALLS_INSERT).raw(true).all(runId, finishedAt, JSON.stringify(rows)) as [
      number,
      string,
    ][]
    for (const [id, key] of out) ids.set(key, id)
    return ids
  }
  for (const c of calls)
    ids.set(
      c.req.callKey,
      insertBatchCall(db, runId, c.req, {
        status: 'done',
        reply: { chunk: c.chunk, line: c.line },
        promptTokens: c.promptTokens,
        completionTokens: c.completionTokens,
        cacheReadTokens: c.cacheReadTokens,
        cacheWriteTokens: c.cacheWriteTokens,
        cost: c.cost,
        error: null,
        finishedAt,
      }),
    )
  return ids
}

const BATCH_CALL_INSERT = `INSERT INTO run_calls (run_id, call_key, status, request_hash, request, response, cached, attempts,
    latency_ms, prompt_tokens, completion_tokens, cost, error, finished_at,
    cache_read_tokens, cache_write_tokens, via_batch, batch_request_id, reply_chunk, reply_line)
  VALUES (?, ?, ?, NULL, NULL, NULL, 0, 1, NULL, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`

/**
 * The run's call for a batch request. Its request record and hash stay with the request, which
 * the call names (migration 0130), and its reply in the chunk of replies it names (migration
 * 0150): the raw export and a later pass read them through those, text for text what
 * `insertCall` stores for a synchronous call. A key that already has a call (a final error
 * resumed in a new batch) is updated as `insertCall`'s upsert does; the first try is a plain
 * insert, the cheapest statement for the common case.
 */
export function insertBatchCall(db: Db, runId: number, req: IndexedRequest, c: BatchCall): number {
  const values = [
    runId,
    req.callKey,
    c.status,
    c.promptTokens,
    c.completionTokens,
    c.cost,
    c.error,
    c.finishedAt,
    c.cacheReadTokens,
    c.cacheWriteTokens,
    req.id,
    c.reply?.chunk ?? null,
    c.reply?.line ?? null,
  ]
  try {
    return Number(stmt(db, BATCH_CALL_INSERT).run(values).lastInsertRowid)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error
  }
  return stmt(db, `${BATCH_CALL_INSERT} ${UPSERT} RETURNING id`).pluck().get(values) as number
}

/** The stored failure of a call, for a pass that must see the error its batch returned. */
export function callFailure(db: Db, runId: number, key: string): { id: number; error: string } | null {
  const row = stmt(
    db,
    "SELECT id, error FROM run_calls WHERE run_id = ? AND call_key = ? AND status = 'error'",
  ).get(runId, key) as { id: number; error: string | null } | undefined
  return row ? { id: row.id, error: row.error ?? 'the call failed in its batch' } : null
}
