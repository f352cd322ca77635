import { countOf } from '../../shared/plural'
import { type CallResult, type RequestOf, requestOf } from '../judges/types'
import type { ProviderClient } from '../providers/client'
import { TransportError, toTransportError } from '../providers/errors'
import { redactKey } from '../providers/keys'
import { type CallUsage, callCost } from '../providers/models'
import { outputPath } from '../providers/outputPath'
import type { LlmReply, LlmRequest } from '../providers/types'
import type { Db } from '../store/connection'
import { attemptHooks, attemptSignal } from './attempt'
import type { RunConfig } from './config'
import { requestHash } from './hash'
import { backoffDelay, type Clock, realClock, Semaphore, Slot, TokenBucket } from './limits'
import { type CallRecord, cacheGet, cachePut, findCall, insertCall, recordCall } from './repo'
import { TickWrites } from './tickWrites'

/** Thrown inside a run when it is paused or cancelled: the task stops and writes nothing. */
export class RunStopped extends Error {
  override name = 'RunStopped'
}

/** A failure that no retry and no other call can fix (wrong key, unknown model): stop the run. */
export class RunFatal extends Error {
  override name = 'RunFatal'
}

const FATAL_STATUSES = new Set([401, 403, 404])

/** What asking the provider came to: the record to commit, and the reply when there is one. */
interface Attempted {
  record: CallRecord
  reply: LlmReply | null
  cost: number
}

export interface CallerOptions {
  db: Db
  runId: number
  repeatIndex: number
  config: RunConfig
  client: ProviderClient
  apiKey: string | null
  signal: AbortSignal
  clock?: Clock
  /** Where call records are committed (shared with the run's verdict writes); one of its own if unset. */
  writes?: TickWrites
  /** Told about each finished call so the run can report live cost. */
  /** `usage`: the tokens of a call the provider answered (none for a cache hit, which is free). */
  onCall?: (info: { cost: number; cached: boolean; callId: number; usage?: CallUsage }) => void
}

/**
 * What a failed request means for the run: `fatal` stops it (no retry and no other call can fix
 * a wrong key or an unknown model), `retry` is worth another attempt (rate limits, server errors,
 * timeouts), `final` fails this call only. Batch results are classified by the same rule.
 */
export function classifyFailure(error: TransportError): 'fatal' | 'retry' | 'final' {
  if (error.status !== undefined && FATAL_STATUSES.has(error.status)) return 'fatal'
  return error.retryable ? 'retry' : 'final'
}

/** The response-cache key of a request in a run (see requestHash). */
export function callHash(config: RunConfig, repeatIndex: number, request: LlmRequest): string {
  return requestHash({
    provider: config.provider,
    model: config.model,
    baseUrl: config.baseUrl,
    request,
    repeatIndex,
    path: outputPath(request, config.capabilities, config.provider === 'anthropic' ? 'anthropic' : 'openai')
      .kind,
  })
}

/** The record of a call answered from the response cache: free, no request made. */
function cachedCall(runId: number, key: string, hash: string, record: unknown, hit: LlmReply): CallRecord {
  return {
    runId,
    key,
    status: 'done',
    requestHash: hash,
    request: record,
    reply: hit,
    cached: true,
    attempts: 0,
    latencyMs: null,
    promptTokens: hit.usage.promptTokens,
    completionTokens: hit.usage.completionTokens,
    cost: 0,
    error: null,
  }
}

/** A cached reply recorded as this run's call (free, no request made), or null on a miss. */
export function answerFromCache(
  db: Db,
  runId: number,
  key: string,
  hash: string,
  record: unknown,
): { callId: number; reply: LlmReply } | null {
  const hit = cacheGet(db, hash)
  if (!hit) return null
  return { callId: recordCall(db, cachedCall(runId, key, hash, record, hit)), reply: hit }
}

/** Rough token count before the call, so a tokens-per-minute limit can hold a request back. */
function estimateTokens(req: LlmRequest): number {
  const chars =
    (req.system?.length ?? 0) +
    req.messages.reduce((n, m) => n + m.content.length, 0) +
    (req.tool ? JSON.stringify(req.tool.parameters).length : 0)
  return Math.ceil(chars / 4) + (req.maxTokens ?? 256)
}

/**
 * `ctx.call` of one run: memoised by key within the run (a finished key returns its stored
 * reply, which is how resume avoids repeat calls), then the response cache, then the provider
 * under the concurrency gate and rate limits, with transport retries.
 */
export class RunCaller {
  private readonly gate: Semaphore
  private readonly rpm: TokenBucket | null
  private readonly tpm: TokenBucket | null
  private readonly clock: Clock
  private readonly writes: TickWrites

  constructor(private readonly o: CallerOptions) {
    this.clock = o.clock ?? realClock
    this.writes = o.writes ?? new TickWrites(o.db)
    this.gate = new Semaphore(o.config.concurrency)
    this.rpm = o.config.rpm ? new TokenBucket(o.config.rpm, this.clock) : null
    this.tpm = o.config.tpm ? new TokenBucket(o.config.tpm, this.clock) : null
  }

  private scrub(text: string): string {
    return redactKey(text, this.o.apiKey)
  }

  async call(key: string, requestOrBuild: RequestOf, onId?: (callId: number) => void): Promise<CallResult> {
    const { db, runId, config } = this.o
    if (this.o.signal.aborted) throw new RunStopped('stopped')
    const stored = findCall(db, runId, key)
    if (stored?.status === 'done' && stored.reply) {
      onId?.(stored.id)
      return { ok: true, reply: stored.reply, callId: stored.id }
    }
    const request = requestOf(requestOrBuild)
    const hash = callHash(config, this.o.repeatIndex, request)
    const record = { request, wire: this.o.client.wireBody(request) }
    if (config.cache) {
      const hit = cacheGet(db, hash)
      if (hit) {
        const callId = await this.writes.write(() =>
          insertCall(db, cachedCall(runId, key, hash, record, hit)),
        )
        onId?.(callId)
        this.o.onCall?.({ cost: 0, cached: true, callId })
        return { ok: true, reply: hit, callId }
      }
    }
    // The place is taken inside the client, once the SDK has built the request (see SendHooks).
    const slot = new Slot(this.gate)
    let outcome: Attempted
    try {
      outcome = await this.attempt(key, request, hash, record, slot)
    } catch (error) {
      slot.release()
      throw error
    }
    // A success has handed its slot on already, as it arrived (see attemptHooks). Any other
    // outcome alone in its turn frees it before its record commits, so the next request need not
    // wait for this one's transaction; outcomes that arrive together free theirs together once
    // their shared commit is done. Either way the answer is reported only once
    // committed, so a kill before then loses only a reply nobody was told of, and resume asks
    // for it again.
    const early = !this.writes.pending()
    if (early) slot.release()
    const { reply, cost } = outcome
    let callId: number
    try {
      callId = await this.writes.write(() => {
        const id = insertCall(db, outcome.record)
        if (reply && config.cache) cachePut(db, hash, reply)
        return id
      })
    } finally {
      if (!early) slot.release()
    }
    onId?.(callId)
    if (!reply) return { ok: false, error: outcome.record.error ?? 'unknown transport failure', callId }
    this.o.onCall?.({ cost, cached: false, callId, usage: reply.usage })
    return { ok: true, reply, callId }
  }

  /** Asks the provider, with retries: the call's record to commit, and its reply if it got one. */
  private async attempt(
    key: string,
    request: LlmRequest,
    hash: string,
    record: unknown,
    slot: Slot,
  ): Promise<Attempted> {
    const { runId, config, signal } = this.o
    let lastError: TransportError | null = null
    let attempts = 0
    // Only a tokens-per-minute limit reads it, and it stringifies the tool's schema.
    const estimate = this.tpm ? estimateTokens(request) : 0
    for (let attempt = 1; attempt <= config.maxAttempts; attempt++) {
      attempts++
      const limit = attemptSignal(signal, config.timeoutMs)
      const sent = attemptHooks(
        { slot, rpm: this.rpm, tpm: this.tpm, tokens: estimate, signal, clock: this.clock },
        limit.arm,
      )
      let reply: LlmReply
      try {
        reply = await this.o.client.complete(request, limit.signal, sent.hooks).finally(limit.end)
      } catch (error) {
        if (signal.aborted) throw new RunStopped('stopped')
        lastError = limit.timedOut()
          ? new TransportError(`no reply within ${config.timeoutMs} ms`, { retryable: true })
          : toTransportError(error)
        const kind = classifyFailure(lastError)
        if (kind === 'fatal') throw new RunFatal(this.scrub(lastError.message))
        if (kind === 'final' || attempt === config.maxAttempts) break
        const delay = backoffDelay(attempt, {
          baseMs: config.backoffMs,
          retryAfterMs: lastError.retryAfterMs,
        })
        await this.clock.sleep(delay, signal).catch(() => {
          throw new RunStopped('stopped')
        })
        continue
      }
      const latencyMs = this.clock.now() - sent.sentAt()
      const used = reply.usage.promptTokens + reply.usage.completionTokens
      this.tpm?.adjust(used - estimate)
      const cost = callCost(config.prices, reply.usage)
      return {
        reply,
        cost,
        record: {
          runId,
          key,
          status: 'done',
          requestHash: hash,
          request: record,
          reply,
          cached: false,
          attempts,
          latencyMs,
          promptTokens: reply.usage.promptTokens,
          completionTokens: reply.usage.completionTokens,
          cacheReadTokens: reply.usage.cacheReadTokens ?? 0,
          cacheWriteTokens: reply.usage.cacheWriteTokens ?? 0,
          cost,
          error: null,
        },
      }
    }
    const message = this.scrub(
      `${lastError?.message ?? 'unknown transport failure'} (after ${countOf(attempts, 'attempt')})`,
    )
    return {
      reply: null,
      cost: 0,
      record: {
        runId,
        key,
        status: 'error',
        requestHash: hash,
        request: record,
        reply: null,
        cached: false,
        attempts,
        latencyMs: null,
        promptTokens: 0,
        completionTokens: 0,
        cost: 0,
        error: message,
      },
    }
  }
}
