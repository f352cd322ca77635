import { z } from 'zod'
import { type CostSplitJson, costSplitJson } from '../../shared/costSplit'
import type { LlmReply } from '../providers/types'
import type { Db } from '../store/connection'
import { callResponse } from '../store/repos/batchReplies'
import { now, parseJson } from '../store/repos/rows'
import { relaxedWrite, stmt } from '../store/statements'
import { verdictCounts } from '../verdicts/reads'
import { RunConfig, type RunKind, RunSlice } from './config'
import { callSums, runCostSplit, runMoneyOf } from './cost'
import { importedRunConfig } from './importedConfig'
import type { CostBasis } from './pricing'

export const RunStatus = z.enum(['queued', 'running', 'paused', 'cancelled', 'failed', 'done'])
export type RunStatus = z.infer<typeof RunStatus>

export const StoredReply = z.object({
  text: z.string().nullable(),
  toolArguments: z.string().nullable(),
  viaFallback: z.boolean(),
  finishReason: z.string().nullable(),
  usage: z.object({
    promptTokens: z.number(),
    completionTokens: z.number(),
    cacheReadTokens: z.number().optional(),
    cacheWriteTokens: z.number().optional(),
  }),
  raw: z.unknown(),
})

export interface RunRecord {
  id: number
  kind: RunKind | 'imported'
  datasetId: number
  judgeConfigId: number | null
  provider: string
  model: string
  method: string
  config: RunConfig
  slice: RunSlice
  repeatIndex: number
  status: RunStatus
  error: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  /** The calls the run plans (judges/plannedCalls.ts); null before its first start. */
  totalCalls: number | null
}

interface RunRow {
  id: number
  kind: RunRecord['kind']
  dataset_id: number
  judge_config_id: number | null
  provider: string
  model: string
  method: string
  config: string
  slice: string
  repeat_index: number
  status: string
  error: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
  planned_calls: number | null
}

function toRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    kind: row.kind,
    datasetId: row.dataset_id,
    judgeConfigId: row.judge_config_id,
    provider: row.provider,
    model: row.model,
    method: row.method,
    config:
      row.kind === 'imported'
        ? importedRunConfig(row.model, row.method)
        : parseJson(RunConfig, row.config, 'runs.config'),
    slice: parseJson(RunSlice, row.slice, 'runs.slice'),
    repeatIndex: row.repeat_index,
    status: RunStatus.parse(row.status),
    error: row.error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    totalCalls: row.planned_calls ?? null,
  }
}

export function insertRun(
  db: Db,
  input: {
    kind: RunKind
    datasetId: number
    judgeConfigId?: number | null
    config: RunConfig
    slice: RunSlice
    repeatIndex?: number
  },
): number {
  const info = db
    .prepare(
      `INSERT INTO runs (kind, dataset_id, judge_config_id, provider, model, method, config, slice, repeat_index, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)`,
    )
    .run(
      input.kind,
      input.datasetId,
      input.judgeConfigId ?? null,
      input.config.provider,
      input.config.model,
      input.config.method,
      JSON.stringify(input.config),
      JSON.stringify(input.slice),
      input.repeatIndex ?? 0,
      now(),
    )
  return Number(info.lastInsertRowid)
}

export function getRun(db: Db, id: number): RunRecord {
  const row = db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined
  if (!row) throw new Error(`No run with id ${id}`)
  return toRecord(row)
}

export function listRuns(db: Db, datasetId?: number): RunRecord[] {
  const rows = (
    datasetId === undefined
      ? db.prepare('SELECT * FROM runs ORDER BY id DESC').all()
      : db.prepare('SELECT * FROM runs WHERE dataset_id = ? ORDER BY id DESC').all(datasetId)
  ) as RunRow[]
  return rows.map(toRecord)
}

export function setRunStatus(db: Db, id: number, status: RunStatus, error: string | null = null): void {
  const t = now()
  if (status === 'running')
    db.prepare(
      'UPDATE runs SET status = ?, error = NULL, started_at = COALESCE(started_at, ?), finished_at = NULL WHERE id = ?',
    ).run(status, t, id)
  else if (status === 'paused' || status === 'queued')
    db.prepare('UPDATE runs SET status = ?, error = ? WHERE id = ?').run(status, error, id)
  else if (status === 'done')
    // A finished run keeps any note written while it ran (e.g. how many items gave nothing).
    db.prepare('UPDATE runs SET status = ?, error = COALESCE(?, error), finished_at = ? WHERE id = ?').run(
      status,
      error,
      t,
      id,
    )
  else
    db.prepare('UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ?').run(
      status,
      error,
      t,
      id,
    )
}

/** Switches how the rest of a run is sent (`judge resume --mode sync` after an expired batch). */
export function setRunMode(db: Db, id: number, mode: RunConfig['mode']): void {
  const run = getRun(db, id)
  db.prepare('UPDATE runs SET config = ? WHERE id = ?').run(JSON.stringify({ ...run.config, mode }), id)
}

/** A remark kept on the run (shown beside it) that does not make it fail. */
export function noteOnRun(db: Db, runId: number, note: string): void {
  db.prepare('UPDATE runs SET error = ? WHERE id = ?').run(note, runId)
}

/**
 * Bookkeeping like the run's calls (see relaxedWrite): a total lost to a power cut is counted
 * again by the next start. Waiting for the disk here held the first request of every run back by
 * 3 to 12 ms on a busy machine.
 */
export function setRunTotal(db: Db, id: number, total: number, plannedCalls: number | null = null): void {
  relaxedWrite(db, () =>
    stmt(db, 'UPDATE runs SET total_calls = ?, planned_calls = COALESCE(?, planned_calls) WHERE id = ?').run(
      total,
      plannedCalls,
      id,
    ),
  )
}

export interface StoredCall {
  id: number
  status: 'pending' | 'done' | 'error'
  reply: LlmReply | null
}

export function findCall(db: Db, runId: number, key: string): StoredCall | null {
  const row = stmt(
    db,
    'SELECT id, status, response, reply_chunk, reply_line FROM run_calls WHERE run_id = ? AND call_key = ?',
  ).get(runId, key) as
    | {
        id: number
        status: StoredCall['status']
        response: string | null
        reply_chunk: number | null
        reply_line: number | null
      }
    | undefined
  if (!row) return null
  // A reply read from a batch is kept in its batch's chunk of replies (migration 0150).
  const response = row.status === 'done' ? callResponse(db, row) : null
  const reply =
    response !== null ? (parseJson(StoredReply, response, 'run_calls.response') as LlmReply) : null
  return { id: row.id, status: row.status, reply }
}

export interface CallRecord {
  runId: number
  key: string
  status: 'done' | 'error'
  requestHash: string
  request: unknown
  reply: LlmReply | null
  cached: boolean
  attempts: number
  latencyMs: number | null
  promptTokens: number
  completionTokens: number
  /** Of the prompt tokens, those read from / written to the provider's prompt cache. */
  cacheReadTokens?: number
  cacheWriteTokens?: number
  /** True when the reply came back through a provider batch. */
  viaBatch?: boolean
  cost: number
  error: string | null
}

/** One finished call, committed on its own so a kill right after loses nothing. */
export function recordCall(db: Db, c: CallRecord): number {
  return relaxedWrite(db, () => insertCall(db, c))
}

/**
 * A second call of the same key (a retry, or a final error resumed later) updates its row and
 * adds its attempts. Each writer ends the list with where the reply is kept: a synchronous call
 * holds it itself, a batch call names its batch request and chunk of replies.
 */
export const CALL_UPSERT = `ON CONFLICT (run_id, call_key) DO UPDATE SET status = excluded.status,
    request_hash = excluded.request_hash, request = excluded.request, response = excluded.response,
    cached = excluded.cached, attempts = run_calls.attempts + excluded.attempts,
    latency_ms = excluded.latency_ms, prompt_tokens = excluded.prompt_tokens,
    completion_tokens = excluded.completion_tokens, cost = excluded.cost, error = excluded.error,
    finished_at = excluded.finished_at, cache_read_tokens = excluded.cache_read_tokens,
    cache_write_tokens = excluded.cache_write_tokens, via_batch = excluded.via_batch,`

// Whole, not a template per call: a judge run inserts hundreds of calls a second, and each new
// string of the statement would be hashed again to find its prepared statement.
const INSERT_CALL = `INSERT INTO run_calls (run_id, call_key, status, request_hash, request, response, cached, attempts,
         latency_ms, prompt_tokens, completion_tokens, cost, error, finished_at,
         cache_read_tokens, cache_write_tokens, via_batch)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ${CALL_UPSERT} batch_request_id = NULL, reply_chunk = NULL, reply_line = NULL
       RETURNING id`

export function insertCall(db: Db, c: CallRecord): number {
  const info = stmt(db, INSERT_CALL).get(
    c.runId,
    c.key,
    c.status,
    c.requestHash,
    JSON.stringify(c.request),
    c.reply ? JSON.stringify(c.reply) : null,
    c.cached ? 1 : 0,
    c.attempts,
    c.latencyMs,
    c.promptTokens,
    c.completionTokens,
    c.cost,
    c.error,
    now(),
    c.cacheReadTokens ?? 0,
    c.cacheWriteTokens ?? 0,
    c.viaBatch ? 1 : 0,
  ) as { id: number }
  return info.id
}

export function cacheGet(db: Db, hash: string): LlmReply | null {
  const row = stmt(db, 'SELECT response FROM response_cache WHERE request_hash = ?').get(hash) as
    | { response: string }
    | undefined
  if (!row) return null
  const parsed = StoredReply.safeParse(JSON.parse(row.response))
  return parsed.success ? (parsed.data as LlmReply) : null
}

export function cachePut(db: Db, hash: string, reply: LlmReply): void {
  stmt(
    db,
    `INSERT OR REPLACE INTO response_cache (request_hash, response, prompt_tokens, completion_tokens, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(hash, JSON.stringify(reply), reply.usage.promptTokens, reply.usage.completionTokens, now())
}

export interface RunSummary {
  run: number
  status: RunStatus
  /** Calls the provider answered (cache hits and failed calls excluded: see `cached`, `callErrors`). */
  calls: number
  /** HTTP requests made for them, retries included. */
  attempts: number
  cached: number
  /** Format-repair calls, counted apart from first attempts. */
  repairs: number
  callErrors: number
  verdicts: number
  na: number
  errors: number
  prompt_tokens: number
  completion_tokens: number
  /** Of the prompt tokens, those read from and written to the provider's prompt cache. */
  cache_read_tokens: number
  cache_write_tokens: number
  cost: number
  /** Where `cost` comes from (runs/pricing.ts): the run's own prices, its model's entered since, or none. */
  cost_basis: CostBasis
  /** The tokens by the price each was paid at (uncached, cache read, cache write, output) and their money. */
  cost_split: CostSplitJson
  /** `batch` when the run goes through the provider's batch API now (it may have gone otherwise before). */
  mode: 'sync' | 'batch'
  /** Of `calls`, those answered through a provider batch, at the batch price. */
  batch_calls: number
  latency_ms_p50: number | null
  /** The calls the run plans (judges/plannedCalls.ts; repair retries come on top); null before its first start. */
  total_calls: number | null
}

/** Calls a run has made so far: answered by the provider, served from the cache, or failed. */
export function callsMade(s: { calls: number; cached: number; callErrors: number }): number {
  return s.calls + s.cached + s.callErrors
}

/** What the run's calls have cost so far: the summary's `cost`, without the rest of it. */
export function runCost(db: Db, runId: number): number {
  return runMoneyOf(db, getRun(db, runId).config, callSums(db, runId)).cost
}

const money = (m: { cost: number; basis: CostBasis }) => ({ cost: m.cost, cost_basis: m.basis })

export function runSummary(db: Db, runId: number): RunSummary {
  const run = getRun(db, runId)
  const calls = callSums(db, runId)
  const v = verdictCounts(db, runId)
  // The middle latency, read only when some call has one: a batch run's calls have none, and
  // going over them all again cost as much as the sums above.
  const p50 =
    calls.timed > 0
      ? ((db
          .prepare(
            'SELECT latency_ms FROM run_calls WHERE run_id = ? AND cached = 0 AND latency_ms IS NOT NULL ORDER BY latency_ms LIMIT 1 OFFSET ?',
          )
          .pluck()
          .get(runId, Math.floor(calls.timed / 2)) as number | undefined) ?? null)
      : null
  return {
    run: runId,
    status: run.status,
    calls: calls.calls,
    attempts: calls.attempts,
    cached: calls.cached,
    repairs: calls.repairs,
    callErrors: calls.callErrors,
    verdicts: v.ok,
    na: v.na,
    errors: v.err,
    prompt_tokens: calls.pt,
    completion_tokens: calls.ct,
    cache_read_tokens: calls.crt,
    cache_write_tokens: calls.cwt,
    ...money(runMoneyOf(db, run.config, calls)),
    cost_split: costSplitJson(runCostSplit(db, run.config, calls)),
    mode: run.config.mode,
    batch_calls: calls.bcalls,
    latency_ms_p50: p50,
    total_calls: run.totalCalls,
  }
}
