import { z } from 'zod'
import { batchRefused } from '../../shared/batchWords'
import { type CostSplit, costSplitFromJson } from '../../shared/costSplit'
import type { JudgeMethod } from '../../shared/domain'
import { METHOD_TEMPLATES } from '../judges/registry'
import { latestTemplates } from '../prompts/store'
import { BUILTIN_REGISTRY } from '../runs/builtin'
import { runPricesNow } from '../runs/cost'
import { type ExpectedInput, expectedCost } from '../runs/expected'
import { lastTakeover } from '../runs/lease'
import { standingTakeover } from '../runs/leaseRules'
import { firstCandidateCalls } from '../runs/preview'
import { callsMade, getRun, type RunRecord, type RunSummary, runSummary } from '../runs/repo'
import { loadJudgeTasks } from '../runs/tasks'
import { templateWords } from '../runs/templateWords'
import type { Db } from '../store/connection'
import { type BatchRow, listBatches, REQUEST_STATE, STILL_WAITING } from './repo'

export interface BatchInfo {
  id: number
  providerBatchId: string | null
  state: BatchRow['state']
  providerStatus: string | null
  requests: number
  succeeded: number
  errored: number
  processing: number
  /** Requests the batch did not answer (cancelled, failed) whose call was answered call by call since. */
  answeredSince: number
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
  /** Money spent so far, and that plus the calls left (runs/expected.ts), and what that rests on. */
  cost: number
  costBasis: RunSummary['cost_basis']
  expectedCost: number | null
  expectedBasis: string
  /** Set while a run that is under way was taken over from a vanished or silent driver. */
  takeover: string | null
  /** Which template versions every call of the run sends (runs/templateWords.ts). */
  templates: string | null
  /** Calls made so far (answered, from the cache or failed) and the calls the run plans. */
  callsMade: number
  totalCalls: number | null
  calls: number
  cached: number
  callErrors: number
  /** Of `calls`, those answered through a provider batch, at the batch price. */
  batchCalls: number
  promptTokens: number
  completionTokens: number
  /** The cost so far by the price each token was paid at (shared/costSplit.ts). */
  costSplit: CostSplit
}

/** The average tokens of a run's answered calls (cache hits left out: nobody paid for them). */
function answeredAverage(db: Db, runId: number): ExpectedInput['answered'] {
  const avg = db
    .prepare(
      `SELECT COUNT(*) AS n, AVG(prompt_tokens) AS pt, AVG(completion_tokens) AS ct,
         AVG(cache_read_tokens) AS crt, AVG(cache_write_tokens) AS cwt
       FROM run_calls WHERE run_id = ? AND status = 'done' AND cached = 0`,
    )
    .get(runId) as { n: number; pt: number | null; ct: number | null; crt: number | null; cwt: number | null }
  return {
    n: avg.n,
    usage: {
      promptTokens: avg.pt ?? 0,
      completionTokens: avg.ct ?? 0,
      cacheReadTokens: avg.crt ?? 0,
      cacheWriteTokens: avg.cwt ?? 0,
    },
  }
}

/** About a token per 4 bytes of the body a call sends: the estimate a request gets before any answer. */
const tokensOfBytes = (bytes: number) => bytes / 4

const bodyBytes = (wire: unknown) => Buffer.byteLength(JSON.stringify(wire))

/** A waiting request's record as submit.ts stores it: the request and the body it sends. */
const WaitingRecord = z.object({ wire: z.record(z.string(), z.unknown()) })

/**
 * The body a waiting batch request sends, from its record. The record also keeps the request it
 * was built from, so its own length is about twice the body's (and the batch file's line adds an
 * envelope): a call-by-call run's estimate reads the body alone, and so does this one.
 */
function waitingBody(record: string): Record<string, unknown> | null {
  try {
    const r = WaitingRecord.safeParse(JSON.parse(record))
    return r.success ? r.data.wire : null
  } catch {
    return null
  }
}

/**
 * The prompt tokens of one call still to make, before any call was answered: the bodies of the
 * requests waiting in a batch, else those of the first candidate's requests built as the run
 * builds them (nothing is sent). Either way the same reckoning, so the two modes estimate alike.
 */
async function promptEstimate(db: Db, run: RunRecord, waiting: readonly string[]): Promise<number | null> {
  const bodies = waiting.map(waitingBody).filter((w) => w !== null)
  if (bodies.length > 0) return tokensOfBytes(bodies.reduce((n, w) => n + bodyBytes(w), 0) / bodies.length)
  const method = BUILTIN_REGISTRY.judges[run.method]
  if (run.kind !== 'judge' || !method) return null
  const [first] = loadJudgeTasks(db, run.datasetId, method.unitKinds, { ...run.slice, limit: 1 })
  if (!first) return null
  const calls = await firstCandidateCalls(db, run.config, run.datasetId, first, method)
  if (calls.length === 0) return null
  return tokensOfBytes(calls.reduce((n, c) => n + bodyBytes(c.wire), 0) / calls.length)
}

/**
 * Per batch, the requests it did not answer whose call was answered call by call since (the run
 * was resumed with --mode sync, which cancels the batch first): answered, not failed.
 */
function answeredSinceByBatch(db: Db, runId: number): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT r.batch_id AS batchId, COUNT(*) AS n FROM run_batch_requests r
       WHERE r.run_id = ? AND ${REQUEST_STATE} <> 'done' AND EXISTS (
         SELECT 1 FROM run_calls c WHERE c.run_id = r.run_id AND c.call_key = r.call_key
           AND c.status = 'done' AND c.via_batch = 0)
       GROUP BY r.batch_id`,
    )
    .all(runId) as { batchId: number; n: number }[]
  return new Map(rows.map((r) => [r.batchId, r.n]))
}

/** Which template versions the run sends, against the workspace's newest. */
function runTemplateWords(db: Db, run: RunRecord): string | null {
  const names = [
    ...(METHOD_TEMPLATES[run.method as JudgeMethod] ?? []),
    ...(run.kind === 'improve' ? ['dcr.rai'] : []),
  ]
  const latest = Object.fromEntries(latestTemplates(db).map((t) => [t.name, t.version]))
  return templateWords({
    used: names.map((name) => ({ name, version: run.config.templates[name]?.version ?? null })),
    latest,
  })
}

/**
 * A run's batches with the provider's counts, the cost it is heading for and what that rests on
 * (runs/expected.ts), who took it over while it is under way, and which template wording it sends.
 */
export async function batchStatus(db: Db, runId: number): Promise<BatchStatus> {
  const run = getRun(db, runId)
  const summary = runSummary(db, runId)
  const batches = listBatches(db, runId)
  const waitingRows = db
    .prepare(`SELECT b.record AS request FROM run_batch_requests r JOIN run_batch_request_records b ON b.request_id = r.id
       WHERE r.run_id = ? AND ${STILL_WAITING}`)
    .all(runId) as { request: string }[]
  const made = callsMade(summary)
  const answered = answeredAverage(db, runId)
  const finished = run.status === 'done' || run.status === 'cancelled'
  const input: ExpectedInput = {
    cost: summary.cost,
    mode: run.config.mode,
    prices: runPricesNow(db, run.config),
    // A finished run makes no more calls, whatever it planned.
    planned: finished ? made : run.totalCalls,
    made,
    waiting: waitingRows.length,
    answered,
    promptTokens: null,
  }
  if (answered.n === 0 && !finished)
    input.promptTokens = await promptEstimate(
      db,
      run,
      waitingRows.map((r) => r.request),
    )
  const expected = expectedCost(input)
  const since = answeredSinceByBatch(db, runId)
  return {
    runId,
    mode: run.config.mode,
    status: run.status,
    batches: batches.map((b) => {
      const answeredSince = since.get(b.id) ?? 0
      return {
        id: b.id,
        providerBatchId: b.providerBatchId,
        state: b.state,
        providerStatus: b.providerStatus,
        requests: b.requests,
        succeeded: b.counts.succeeded,
        // A batch the provider never took has no counts of its own: every request of it failed,
        // unless answered call by call since. The provider counts a request cancelled by a switch
        // to call by call as failed; answered since, it is not.
        errored: Math.max(0, (batchRefused(b) ? b.requests : b.counts.errored) - answeredSince),
        processing: b.state === 'ingested' ? 0 : b.counts.processing || (b.providerBatchId ? 0 : b.requests),
        answeredSince,
        createdAt: b.createdAt,
        endedAt: b.endedAt,
        error: b.error,
      }
    }),
    waiting: waitingRows.length,
    cost: summary.cost,
    costBasis: summary.cost_basis,
    ...expected,
    takeover: standingTakeover(run.status, lastTakeover(db, runId)),
    templates: runTemplateWords(db, run),
    callsMade: made,
    totalCalls: run.totalCalls,
    calls: summary.calls,
    cached: summary.cached,
    callErrors: summary.callErrors,
    batchCalls: summary.batch_calls,
    promptTokens: summary.prompt_tokens,
    completionTokens: summary.completion_tokens,
    costSplit: costSplitFromJson(summary.cost_split),
  }
}
