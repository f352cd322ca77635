import { CALL_UPSERT } from '../runs/repo'
import type { Db } from '../store/connection'
import { insertManyRows } from '../store/manyRows'
import { stmt } from '../store/statements'
import type { IndexedRequest } from './repo'

/**
 * The run_calls rows of batch answers: one per result, as a synchronous run keeps one per call,
 * with the request record left on its batch request (migration 0130) and the reply in its chunk
 * of replies (migration 0150). The request hash is copied onto the call (migration 0280), so
 * every reader of `run_calls.request_hash` sees a batch call as it sees a synchronous one.
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
    cache_read_tokens, cache_write_tokens, via_batch, batch_request_id, reply_chunk, reply_line) VALUES`

/** A done call's values: those the batch gave, the rest as `insertBatchCall` stores them. */
const DONE_CALL_TUPLE = "(?, ?, 'done', ?, NULL, NULL, 0, 1, NULL, ?, ?, ?, NULL, ?, ?, ?, 1, ?, ?, ?)"

/** The same, with the row's id first. */
const DONE_CALLS_INSERT_WITH_IDS = DONE_CALLS_INSERT.replace('(run_id,', '(id, run_id,')
const DONE_CALL_TUPLE_WITH_ID = DONE_CALL_TUPLE.replace('(?,', '(?, ?,')

/** Rows per statement, as `insertManyRows` writes them. */
const ROWS = 100

/**
 * The calls of a transaction's replies, all answered, a hundred per statement (per row, a
 * statement of its own cost about as much as the insert), bound as `insertBatchCall` binds them.
 * Returns each key's call id.
 *
 * A key almost never has a call yet (only a final error resumed in a new batch has one), so each
 * hundred first goes in as a plain insert with the ids the table would give (one more than the
 * largest, in order): no conflict clause and no RETURNING, about a fifth cheaper. If a key of
 * the hundred has a call after all, that statement fails whole and the hundred goes in again
 * through the upsert, which keeps the old call's id.
 */
export function insertDoneBatchCalls(
  db: Db,
  runId: number,
  finishedAt: string,
  calls: readonly DoneBatchCall[],
): Map<string, number> {
  const ids = new Map<string, number>()
  const pushRow = (out: unknown[], c: DoneBatchCall): void => {
    out.push(
      runId,
      c.req.callKey,
      c.req.requestHash,
      c.promptTokens,
      c.completionTokens,
      c.cost,
      finishedAt,
      c.cacheReadTokens,
      c.cacheWriteTokens,
      c.req.id,
      c.chunk,
      c.line,
    )
  }
  const rowOf = (c: DoneBatchCall): unknown[] => {
    const row: unknown[] = []
    pushRow(row, c)
    return row
  }
  for (let from = 0; from < calls.length; from += ROWS) {
    const group = calls.slice(from, from + ROWS)
    const last = stmt(db, 'SELECT COALESCE(MAX(id), 0) FROM run_calls').pluck().get() as number
    // Bound flat, with no array per row: a row's own array and its spread were about a fifth of
    // this function's JavaScript.
    const values: unknown[] = []
    for (let i = 0; i < group.length; i++) {
      values.push(last + 1 + i)
      pushRow(values, group[i] as DoneBatchCall)
    }
    try {
      stmt(
        db,
        `${DONE_CALLS_INSERT_WITH_IDS} ${Array(group.length).fill(DONE_CALL_TUPLE_WITH_ID).join(', ')}`,
      ).run(values)
      for (const [i, c] of group.entries()) ids.set(c.req.callKey, last + 1 + i)
      continue
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error
    }
    const out = insertManyRows(db, DONE_CALLS_INSERT, group.map(rowOf), {
      tuple: DONE_CALL_TUPLE,
      tail: `${UPSERT} RETURNING id, call_key`,
    }) as [number, string][]
    for (const [id, key] of out) ids.set(key, id)
  }
  return ids
}

const BATCH_CALL_INSERT = `INSERT INTO run_calls (run_id, call_key, status, request_hash, request, response, cached, attempts,
    latency_ms, prompt_tokens, completion_tokens, cost, error, finished_at,
    cache_read_tokens, cache_write_tokens, via_batch, batch_request_id, reply_chunk, reply_line)
  VALUES (?, ?, ?, ?, NULL, NULL, 0, 1, NULL, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`

/**
 * The run's call for a batch request. Its request record stays with the request, which
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
    req.requestHash,
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
