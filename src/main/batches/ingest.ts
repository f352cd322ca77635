import { z } from 'zod'
import type { BatchResult } from '../providers/batch/types'
import type { ProviderClient } from '../providers/client'
import { isRetryableStatus, TransportError } from '../providers/errors'
import { redactKey } from '../providers/keys'
import { callCost } from '../providers/models'
import type { LlmReply, LlmRequest } from '../providers/types'
import { classifyFailure } from '../runs/caller'
import type { RunConfig } from '../runs/config'
import { cachePut, insertCall } from '../runs/repo'
import type { Db } from '../store/connection'
import { relaxedWrite } from '../store/statements'
import { requestById, retriesOf, setRequestState } from './repo'

const Record_ = z.object({ request: z.custom<LlmRequest>((v) => typeof v === 'object' && v !== null) })
const ReplyBody = z.record(z.string(), z.unknown())

/** Lines applied per transaction: big enough to make ingest cheap, small enough to lose little. */
const CHUNK = 2_000

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
} {
  const tally: IngestTally = { succeeded: 0, errored: 0, retry: 0, unfinished: 0, matched: 0, fatal: null }
  let buffer: BatchResult[] = []
  const apply = (r: BatchResult) => {
    const req = requestById(o.db, o.batchId, r.customId)
    if (req) tally.matched++
    if (req?.state !== 'waiting') return
    const base = {
      runId: o.runId,
      key: req.callKey,
      requestHash: req.requestHash,
      request: JSON.parse(req.record) as unknown,
    }
    if (r.kind === 'unfinished') {
      setRequestState(o.db, o.batchId, r.customId, 'unfinished')
      tally.unfinished++
      return
    }
    if (r.kind === 'succeeded') {
      const parsedRecord = Record_.safeParse(base.request)
      const body = ReplyBody.safeParse(r.body)
      if (parsedRecord.success && body.success && o.client.readReply) {
        const reply = o.client.readReply(body.data, parsedRecord.data.request)
        const callId = insertCall(o.db, {
          ...base,
          status: 'done',
          reply,
          cached: false,
          attempts: 1,
          latencyMs: null,
          promptTokens: reply.usage.promptTokens,
          completionTokens: reply.usage.completionTokens,
          cacheReadTokens: reply.usage.cacheReadTokens ?? 0,
          cacheWriteTokens: reply.usage.cacheWriteTokens ?? 0,
          viaBatch: true,
          cost: callCost(o.config.prices, reply.usage, true),
          error: null,
        })
        if (o.config.cache) cachePut(o.db, req.requestHash, reply)
        setRequestState(o.db, o.batchId, r.customId, 'done')
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
      setRequestState(o.db, o.batchId, r.customId, 'retry')
      tally.retry++
      return
    }
    const message = redactKey(
      `${failure.message} (in a batch, after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
      o.apiKey,
    )
    insertCall(o.db, {
      ...base,
      status: 'error',
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
    setRequestState(o.db, o.batchId, r.customId, 'error')
    tally.errored++
    if (kind === 'fatal') tally.fatal ??= message
  }
  const flush = () => {
    if (buffer.length === 0) return
    const chunk = buffer
    buffer = []
    relaxedWrite(o.db, () => {
      for (const r of chunk) apply(r)
    })
  }
  return {
    tally,
    flush,
    push(r) {
      buffer.push(r)
      if (buffer.length >= CHUNK) flush()
    },
  }
}
