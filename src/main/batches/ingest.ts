import { z } from 'zod'
import type { BatchResult } from '../providers/batch/types'
import type { ProviderClient } from '../providers/client'
import { isRetryableStatus, TransportError } from '../providers/errors'
import { redactKey } from '../providers/keys'
import { callCost } from '../providers/models'
import type { LlmReply, LlmRequest } from '../providers/types'
import { classifyFailure } from '../runs/caller'
import type { RunConfig } from '../runs/config'
import { cachePut } from '../runs/repo'
import type { Db } from '../store/connection'
import { relaxedWrite } from '../store/statements'
import {
  insertBatchCall,
  requestIndex,
  requestParts,
  retriesOf,
  type StoredRequest,
  setRequestState,
  setRequestStates,
} from './repo'

const Record_ = z.object({ request: z.custom<LlmRequest>((v) => typeof v === 'object' && v !== null) })
const ReplyBody = z.record(z.string(), z.unknown())

/** Lines applied per transaction: big enough to make ingest cheap, small enough to lose little. */
const CHUNK = 20_000

export interface IngestOptions {
  db: Db
  runId: number
  batchId: number
  config: RunConfig
  client: ProviderClient
  apiKey: string | null
  /** Replies read in this drive, by call key, so the next pass need not read them back. */
  answered?: Map<string, { callId: number; reply: LlmReply }>
}

export interface IngestTally {
  succeeded: number
  errored: number
  retry: number
  unfinished: number
  /** Lines whose custom_id is one of this batch's requests (0: the batch is not this run's). */
  matched: number
  /** A result whose failure stops the whole run (wrong key, unknown model), if any. */
  fatal: string | null
}

/**
 * Applies a batch's results as they stream in, a chunk per transaction: a result becomes the
 * run's finished call (priced at the batch price and cached) exactly as a synchronous reply
 * would, and its request is marked so a re-read of the same file skips it. Failures are sorted
 * by the synchronous engine's rule: worth another try (within the run's attempts), final, or
 * fatal to the run.
 */
export function resultIngester(o: IngestOptions): {
  push(r: BatchResult): void
  flush(): void
  tally: IngestTally
  /** Requests still waiting, and keys whose request ended in a final error (as committed). */
  outstanding(): { waiting: number; erroredKeys: string[] }
} {
  const tally: IngestTally = { succeeded: 0, errored: 0, retry: 0, unfinished: 0, matched: 0, fatal: null }
  let buffer: BatchResult[] = []
  // The batch's requests are read once; their records stay in the workspace and are copied into
  // the call rows there, so a large results file costs no per-line lookups or re-serialisation.
  let requests = requestIndex(o.db, o.batchId)
  let states = new Map<StoredRequest['state'], string[]>()
  const setState = (customId: string, state: StoredRequest['state']) => {
    const ids = states.get(state)
    if (ids) ids.push(customId)
    else states.set(state, [customId])
  }
  /** Request parts of the chunk being applied, read in one statement. */
  let parts = new Map<string, unknown>()
  const requestOf = (customId: string): LlmRequest | null => {
    const text = parts.get(customId)
    if (typeof text !== 'string') return null
    try {
      const parsed = Record_.safeParse({ request: JSON.parse(text) as unknown })
      return parsed.success ? parsed.data.request : null
    } catch {
      return null
    }
  }
  const apply = (r: BatchResult) => {
    const req = requests.get(r.customId)
    if (req) tally.matched++
    if (req?.state !== 'waiting') return
    if (r.kind === 'unfinished') {
      req.state = 'unfinished'
      setState(r.customId, 'unfinished')
      tally.unfinished++
      return
    }
    if (r.kind === 'succeeded') {
      const body = ReplyBody.safeParse(r.body)
      const request = body.success && o.client.readReply ? requestOf(r.customId) : null
      if (request && body.success && o.client.readReply) {
        const reply = o.client.readReply(body.data, request)
        const callId = insertBatchCall(o.db, o.runId, o.batchId, {
          customId: r.customId,
          status: 'done',
          response: JSON.stringify(reply),
          promptTokens: reply.usage.promptTokens,
          completionTokens: reply.usage.completionTokens,
          cacheReadTokens: reply.usage.cacheReadTokens ?? 0,
          cacheWriteTokens: reply.usage.cacheWriteTokens ?? 0,
          cost: callCost(o.config.prices, reply.usage, true),
          error: null,
        })
        if (o.config.cache) cachePut(o.db, req.requestHash, reply)
        req.state = 'done'
        setState(r.customId, 'done')
        o.answered?.set(req.callKey, { callId, reply })
        tally.succeeded++
        return
      }
      r = {
        customId: r.customId,
        kind: 'errored',
        status: undefined,
        message: 'the batch returned a reply that is not a message',
      }
    }
    const failure = new TransportError(
      r.status === undefined ? r.message : `HTTP ${r.status}: ${r.message}`,
      {
        retryable: r.status !== undefined && isRetryableStatus(r.status),
        ...(r.status !== undefined ? { status: r.status } : {}),
      },
    )
    const kind = classifyFailure(failure)
    const attempts = retriesOf(o.db, o.runId, req.callKey) + 1
    if (kind === 'retry' && attempts < o.config.maxAttempts) {
      // Counted by retriesOf for the next result of the same key, so written at once.
      setRequestState(o.db, o.batchId, r.customId, 'retry')
      req.state = 'retry'
      tally.retry++
      return
    }
    const message = redactKey(
      `${failure.message} (in a batch, after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
      o.apiKey,
    )
    insertBatchCall(o.db, o.runId, o.batchId, {
      customId: r.customId,
      status: 'error',
      response: null,
      promptTokens: 0,
      completionTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cost: 0,
      error: message,
    })
    req.state = 'error'
    setState(r.customId, 'error')
    tally.errored++
    if (kind === 'fatal') tally.fatal ??= message
  }
  const flush = () => {
    if (buffer.length === 0) return
    const chunk = buffer
    buffer = []
    try {
      relaxedWrite(o.db, () => {
        const replies = chunk.filter((r) => r.kind === 'succeeded').map((r) => r.customId)
        parts = replies.length > 0 ? requestParts(o.db, o.batchId, replies) : new Map()
        for (const r of chunk) apply(r)
        for (const [state, ids] of states) setRequestStates(o.db, o.batchId, ids, state)
      })
    } catch (error) {
      // Nothing of the chunk was kept: the states in hand go back to what the workspace holds.
      requests = requestIndex(o.db, o.batchId)
      throw error
    } finally {
      states = new Map()
      parts = new Map()
    }
  }
  return {
    tally,
    flush,
    outstanding() {
      let waiting = 0
      const erroredKeys: string[] = []
      for (const r of requests.values())
        if (r.state === 'waiting') waiting++
        else if (r.state === 'error') erroredKeys.push(r.callKey)
      return { waiting, erroredKeys }
    },
    push(r) {
      buffer.push(r)
      if (buffer.length >= CHUNK) flush()
    },
  }
}
