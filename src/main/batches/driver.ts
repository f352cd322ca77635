import { randomBytes } from 'node:crypto'
import { type JudgeContext, type JudgeMethodImpl, requestOf } from '../judges/types'
import type { BatchApi, BatchState } from '../providers/batch/types'
import type { ProviderClient } from '../providers/client'
import { toTransportError } from '../providers/errors'
import { redactKey } from '../providers/keys'
import type { LlmReply, LlmRequest } from '../providers/types'
import { answerFromCache, callHash, classifyFailure, RunFatal, RunStopped } from '../runs/caller'
import { judgeTask, schemaWords } from '../runs/judgeTask'
import { backoffDelay, type Clock } from '../runs/limits'
import { runPool } from '../runs/pool'
import { findCall, insertCall, type RunRecord, setRunTotal } from '../runs/repo'
import { loadJudgeTasks } from '../runs/tasks'
import type { Db } from '../store/connection'
import { relaxedWrite } from '../store/statements'
import { settledTargets } from '../verdicts/reads'
import { writeVerdictsMany } from '../verdicts/write'
import { callFailure } from './calls'
import { resultIngester } from './ingest'
import { splitByLimits } from './plan'
import {
  type BatchRow,
  batchRequests,
  getBatch,
  insertBatch,
  knownProviderIds,
  listBatches,
  markUnanswered,
  recordState,
  setAdopted,
  setIngested,
  setRequestState,
  setSubmitting,
  setUploaded,
  waitingKeys,
} from './repo'

export interface BatchDriverOptions {
  db: Db
  run: RunRecord
  method: JudgeMethodImpl
  /** The run's provider client: builds each body exactly as a synchronous call would, reads replies. */
  client: ProviderClient
  api: BatchApi
  apiKey: string | null
  /** The method context of the run with `call` replaced. */
  context: (call: JudgeContext['call']) => JudgeContext
  signal: AbortSignal
  clock: Clock
  /** First and longest wait between polls; the wait doubles while nothing changes. */
  poll?: { firstMs: number; maxMs: number }
  /** Candidates judged, or (while batches run) requests the provider has answered. */
  progress: (done: number, total: number) => void
}

const WAITING = 'waiting for its batch'
const isStop = (e: unknown) => e instanceof RunStopped

/**
 * A judge run through a provider's batch API. The method runs over every unjudged candidate
 * with a `call` that answers from the run's finished calls and the response cache and defers
 * everything else; the deferred requests (the very bodies a synchronous run sends) go out in
 * batches split by the provider's limits; their results become the run's calls; and the method
 * runs again, writing verdicts for candidates whose calls are all answered and deferring any
 * follow-up calls (repairs, DCR's second step) to the next round.
 *
 * Every step is recorded before the next begins (see migration 0090), so a driver started on a
 * run that was killed anywhere first brings its open batches to an end, never sending a request
 * that is already in a batch and never dropping a result already read.
 */
export async function runBatchJudge(o: BatchDriverOptions): Promise<void> {
  const { db, run, api, signal } = o
  const config = run.config
  const poll = o.poll ?? { firstMs: 5_000, maxMs: 60_000 }
  const words = schemaWords(db, run)
  /** Keys whose batch returned a final error during this drive: the method sees that error. */
  const failedNow = new Set<string>()
  const unfinished: string[] = []
  /** Replies read since the last pass, handed to it without a round trip through the workspace. */
  const answered = new Map<string, { callId: number; reply: LlmReply }>()

  const sleep = (ms: number) =>
    o.clock.sleep(ms, signal).catch(() => {
      throw new RunStopped('stopped')
    })
  const scrub = (t: string) => redactKey(t, o.apiKey)

  /** A provider call with the engine's retry rule; a final failure is returned, not thrown. */
  async function withRetry<T>(
    what: string,
    fn: () => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new RunStopped('stopped')
      try {
        return { ok: true, value: await fn() }
      } catch (error) {
        if (signal.aborted) throw new RunStopped('stopped')
        const t = toTransportError(error)
        const kind = classifyFailure(t)
        if (kind === 'fatal') throw new RunFatal(scrub(`${what}: ${t.message}`))
        if (kind === 'final' || attempt >= config.maxAttempts)
          return {
            ok: false,
            error: scrub(`${what}: ${t.message} (after ${attempt} attempt${attempt === 1 ? '' : 's'})`),
          }
        await sleep(backoffDelay(attempt, { baseMs: config.backoffMs, retryAfterMs: t.retryAfterMs }))
      }
    }
  }

  const wireOf = (record: string) => (JSON.parse(record) as { wire: Record<string, unknown> }).wire
  const linesOf = (b: BatchRow) =>
    batchRequests(db, b.id).map((r) => api.lineOf(r.customId, wireOf(r.record)))

  /** Every request of a batch the provider would not take becomes a failed call. */
  function refuse(b: BatchRow, message: string): void {
    relaxedWrite(db, () => {
      for (const r of batchRequests(db, b.id)) {
        if (r.state !== 'waiting') continue
        insertCall(db, {
          runId: run.id,
          key: r.callKey,
          status: 'error',
          requestHash: r.requestHash,
          request: JSON.parse(r.record) as unknown,
          reply: null,
          cached: false,
          attempts: 1,
          latencyMs: null,
          promptTokens: 0,
          completionTokens: 0,
          viaBatch: true,
          cost: 0,
          error: message,
        })
        setRequestState(db, b.id, r.customId, 'error')
        failedNow.add(r.callKey)
      }
      setIngested(db, b.id, message)
    })
  }

  /** Upload and create, from whatever step a batch was left at. */
  async function submit(start: BatchRow): Promise<void> {
    let b = start
    const lines = linesOf(b)
    if (b.state === 'preparing') {
      const up = await withRetry('uploading the batch file', () => api.upload(lines, signal))
      if (!up.ok) return refuse(b, up.error)
      setUploaded(db, b.id, up.value)
      b = getBatch(db, b.id)
    }
    if (b.state === 'submitting') {
      // Killed during the create call: the provider may have the batch already.
      const found = await withRetry('looking for a batch created before an interruption', () =>
        api.findCreated(
          { fileId: b.inputFileId, requests: b.requests, since: b.submitStartedAt ?? b.createdAt },
          knownProviderIds(db, api.provider),
          signal,
        ),
      )
      if (found.ok && found.value) {
        setAdopted(db, b.id)
        return recordState(db, b.id, found.value)
      }
    }
    setSubmitting(db, b.id)
    const created = await withRetry('creating the batch', () =>
      api.create({ fileId: b.inputFileId, lines, tag: `factlab run ${run.id} batch ${b.id}` }, signal),
    )
    if (!created.ok) return refuse(b, created.error)
    recordState(db, b.id, created.value)
  }

  /** Reads an ended batch's results into the run; a broken download is read again. */
  async function ingest(b: BatchRow): Promise<void> {
    if (b.error && !b.outputFileId && !b.errorFileId)
      return refuse(b, scrub(`the provider refused the batch: ${b.error}`))
    const ing = resultIngester({
      db,
      runId: run.id,
      batchId: b.id,
      config,
      client: o.client,
      apiKey: o.apiKey,
      answered,
    })
    const state: BatchState = {
      id: b.providerBatchId ?? '',
      phase: 'ended',
      providerStatus: b.providerStatus ?? '',
      counts: b.counts,
      outputFileId: b.outputFileId,
      errorFileId: b.errorFileId,
      error: b.error,
    }
    for (let attempt = 1; ; attempt++) {
      // Results already in hand are committed while the rest is still on its way.
      const timer = setInterval(() => ing.flush(), 200)
      try {
        await api.results(state, (r) => ing.push(r), signal)
        ing.flush()
        break
      } catch (error) {
        ing.flush()
        if (signal.aborted) throw new RunStopped('stopped')
        const message = scrub(error instanceof Error ? error.message : String(error))
        if (attempt >= config.maxAttempts + 2)
          throw new RunFatal(
            `could not read the results of batch ${b.providerBatchId}: ${message}; judge resume ${run.id} reads them again`,
          )
        await sleep(backoffDelay(attempt, { baseMs: Math.max(config.backoffMs, 1) }))
      } finally {
        clearInterval(timer)
      }
    }
    // The ingester holds every request's committed state: the table is scanned only if needed.
    const left = ing.outstanding()
    const missing = left.waiting > 0 ? markUnanswered(db, b.id) : 0
    if (b.adopted && ing.tally.matched === 0) {
      // The batch found after an interruption was someone else's (Anthropic batches carry no
      // tag to tell): nothing of this run was answered, so its requests simply go out again.
      setIngested(
        db,
        b.id,
        'found after an interruption but not this run’s batch; its requests were sent again',
      )
      return
    }
    setIngested(db, b.id)
    for (const k of left.erroredKeys) failedNow.add(k)
    if (ing.tally.fatal) throw new RunFatal(ing.tally.fatal)
    if (ing.tally.unfinished + missing > 0)
      unfinished.push(
        `${ing.tally.unfinished + missing} request(s) of batch ${b.providerBatchId} (${b.providerStatus})`,
      )
  }

  /** Brings every open batch of the run to an end and reads it, polling with backoff. */
  async function settle(): Promise<void> {
    for (const b of listBatches(db, run.id))
      if (b.state === 'preparing' || b.state === 'uploaded' || b.state === 'submitting') await submit(b)
    let delay = poll.firstMs
    for (;;) {
      const open = listBatches(db, run.id).filter((b) => b.state !== 'ingested')
      if (open.length === 0) return
      let changed = false
      for (const b of open) {
        if (b.state === 'submitted' && b.providerBatchId) {
          const got = await withRetry('checking the batch', () =>
            api.retrieve(b.providerBatchId as string, signal),
          )
          if (got.ok) {
            const before = JSON.stringify(b.counts)
            recordState(db, b.id, got.value)
            if (JSON.stringify(got.value.counts) !== before || got.value.phase === 'ended') changed = true
          }
        }
        const now = getBatch(db, b.id)
        if (now.state === 'ended') {
          await ingest(now)
          changed = true
        }
      }
      const all = listBatches(db, run.id).filter((b) => b.state !== 'ingested')
      if (all.length === 0) return
      const answered = all.reduce((n, b) => n + b.counts.succeeded + b.counts.errored, 0)
      o.progress(
        answered,
        all.reduce((n, b) => n + b.requests, 0),
      )
      delay = changed ? poll.firstMs : Math.min(poll.maxMs, delay * 2)
      await sleep(delay)
    }
  }

  /** One pass of the method over unjudged candidates; returns the calls it still needs. */
  async function pass(): Promise<{
    toSubmit: Map<string, { hash: string; record: { request: LlmRequest; wire: Record<string, unknown> } }>
    blocked: number
  }> {
    const tasks = loadJudgeTasks(db, run.datasetId, o.method.unitKinds, run.slice)
    setRunTotal(db, run.id, tasks.length)
    const settled = settledTargets(db, run.id)
    const pending = tasks.filter((t) => t.targets.some((x) => !settled.has(x.targetId)))
    const waiting = waitingKeys(db, run.id)
    const toSubmit = new Map<
      string,
      { hash: string; record: { request: LlmRequest; wire: Record<string, unknown> } }
    >()
    let blocked = 0
    let done = tasks.length - pending.length
    // Verdicts go in a few hundred candidates per transaction: one commit each would cost more
    // than the rest of a large pass. A kill before a flush loses nothing: the calls are stored.
    let writes: { outcomes: Awaited<ReturnType<typeof judgeTask>>; callId: number | null }[] = []
    const flush = () => {
      const chunk = writes
      writes = []
      if (chunk.length > 0) writeVerdictsMany(db, run.id, chunk)
    }
    await runPool(
      pending,
      16,
      signal,
      async (task) => {
        let callId: number | null = null
        let deferred = false
        const ctx = o.context(async (key, build) => {
          if (signal.aborted) throw new RunStopped('stopped')
          const fresh = answered.get(key)
          if (fresh) {
            callId = fresh.callId
            return { ok: true, reply: fresh.reply, callId }
          }
          const stored = findCall(db, run.id, key)
          if (stored?.status === 'done' && stored.reply) {
            callId = stored.id
            return { ok: true, reply: stored.reply, callId }
          }
          if (failedNow.has(key)) {
            const f = callFailure(db, run.id, key)
            if (f) {
              callId = f.id
              return { ok: false, error: f.error, callId }
            }
          }
          // Built only here: a call answered above needs no request.
          const request = requestOf(build)
          const hash = callHash(config, run.repeatIndex, request)
          const record = { request, wire: o.client.wireBody(request) }
          if (config.cache) {
            const hit = answerFromCache(db, run.id, key, hash, record)
            if (hit) {
              callId = hit.callId
              return { ok: true, reply: hit.reply, callId }
            }
          }
          deferred = true
          if (!waiting.has(key) && !toSubmit.has(key)) toSubmit.set(key, { hash, record })
          return { ok: false, error: WAITING }
        })
        const outcomes = await judgeTask(o.method, task, ctx, words)
        if (deferred) {
          blocked++
          return
        }
        writes.push({ outcomes, callId })
        if (writes.length >= 500) flush()
        done++
      },
      isStop,
      () => undefined,
    ).finally(flush)
    answered.clear()
    o.progress(done, tasks.length)
    return { toSubmit, blocked }
  }

  /** New batches for the deferred calls, split by the provider's limits, each submitted in turn. */
  async function submitNew(toSubmit: Awaited<ReturnType<typeof pass>>['toSubmit']): Promise<void> {
    const entries = [...toSubmit]
    // Sized with the longest custom_id this run can give, so the real lines never exceed a limit.
    const probeId = `r${run.id}-b${'9'.repeat(12)}-${'x'.repeat(8)}-${'9'.repeat(7)}`
    const lines = entries.map(([, v]) => api.lineOf(probeId, v.record.wire))
    const sizes = lines.map((l) => Buffer.byteLength(l, 'utf8'))
    for (const group of splitByLimits(sizes, api.limits)) {
      const bytes = group.reduce((n, i) => n + (sizes[i] ?? 0) + 1, 0)
      // A random tag in every custom_id: results of a batch that is not this one never match.
      const tag = randomBytes(6).toString('base64url').slice(0, 8)
      const id = insertBatch(db, { runId: run.id, provider: api.provider, bytes }, (batchId) =>
        group.map((i, n) => {
          const [key, v] = entries[i] as (typeof entries)[number]
          return {
            customId: `r${run.id}-b${batchId}-${tag}-${n}`,
            callKey: key,
            requestHash: v.hash,
            record: JSON.stringify(v.record),
            tool: v.record.request.tool !== undefined,
          }
        }),
      )
      await submit(getBatch(db, id))
    }
  }

  await settle()
  for (;;) {
    const { toSubmit, blocked } = await pass()
    // Verdicts of everything answered are written first; what expired or was cancelled waits
    // for the person to resume (a batch cancelled on purpose is not sent again by itself).
    if (unfinished.length > 0)
      throw new RunFatal(
        `${unfinished.join('; ')} ended without a result; judge resume ${run.id} sends them in a new batch (or --mode sync calls them one by one)`,
      )
    if (toSubmit.size === 0 && blocked === 0) return
    if (toSubmit.size === 0 && listBatches(db, run.id).every((b) => b.state === 'ingested'))
      throw new RunFatal('calls wait for a batch that no longer exists; resume the run to send them again')
    await submitNew(toSubmit)
    await settle()
  }
}
