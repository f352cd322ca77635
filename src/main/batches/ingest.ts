import { countOf } from '../../shared/plural'
import type { BatchResult } from '../providers/batch/types'
import type { ProviderClient } from '../providers/client'
import { isRetryableStatus, TransportError } from '../providers/errors'
import { redactKey } from '../providers/keys'
import { callCost } from '../providers/models'
import type { LlmReply } from '../providers/types'
import { classifyFailure } from '../runs/caller'
import type { RunConfig } from '../runs/config'
import { cachePut } from '../runs/repo'
import type { Db } from '../store/connection'
import { insertReplyChunk } from '../store/repos/batchReplies'
import { now } from '../store/repos/rows'
import { relaxedWrite } from '../store/statements'
import { type DoneBatchCall, insertBatchCall, insertDoneBatchCalls } from './calls'
import {
  type IndexedRequest,
  requestIndex,
  retriesOf,
  type StoredRequest,
  setRequestStatesById,
} from './repo'

/** A reply body is a JSON object (the provider module checked the line around it). */
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Lines applied per transaction: big enough to make ingest cheap, small enough to lose little. */
const CHUNK = 1_000

/**
 * Replies per compressed row: DEFLATE looks back 32 KB (about 80 replies of a word), so larger
 * rows barely compress better, while a reader wanting one reply inflates the whole row.
 */
const REPLY_CHUNK = 64

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
  // The batch's requests are read once, without their records: a call names the request it went
  // out as (migration 0130), and a reply is read knowing only whether its request asked for a
  // tool, so a large results file costs no per-line lookups, copies or re-parsing of records.
  let requests = requestIndex(o.db, o.batchId)
  let states = new Map<StoredRequest['state'], number[]>()
  const setState = (id: number, state: StoredRequest['state']) => {
    const ids = states.get(state)
    if (ids) ids.push(id)
    else states.set(state, [id])
  }
  /** One time for the calls of a chunk: they are stored together. */
  let finishedAt = ''
  /** The chunk's replies, stored together once it is read (see storeReplies). */
  let replies: { req: IndexedRequest; reply: LlmReply }[] = []
  /**
   * The chunk's replies as one compressed row, then a narrow call row per reply naming its line
   * (migration 0150): the reply text is the one a synchronous call keeps in `response`.
   */
  const storeReplies = () => {
    if (replies.length === 0) return
    // In the order the requests went out (results come back in any order), so a later reader
    // going through the run's candidates finds their replies in few, small chunks.
    replies.sort((a, b) => a.req.id - b.req.id)
    const calls: DoneBatchCall[] = []
    for (let from = 0; from < replies.length; from += REPLY_CHUNK) {
      const group = replies.slice(from, from + REPLY_CHUNK)
      const chunk = insertReplyChunk(
        o.db,
        o.batchId,
        group.map((x) => JSON.stringify(x.reply)),
      )
      for (const [line, { req, reply }] of group.entries())
        calls.push({
          req,
          chunk,
          line,
          promptTokens: reply.usage.promptTokens,
          completionTokens: reply.usage.completionTokens,
          cacheReadTokens: reply.usage.cacheReadTokens ?? 0,
          cacheWriteTokens: reply.usage.cacheWriteTokens ?? 0,
          cost: callCost(o.config.prices, reply.usage, true),
        })
    }
    const ids = insertDoneBatchCalls(o.db, o.runId, finishedAt, calls)
    for (const { req, reply } of replies) {
      if (o.config.cache) cachePut(o.db, req.requestHash, reply)
      const callId = ids.get(req.callKey)
      if (callId === undefined) throw new Error(`the call of ${req.callKey} was not stored`)
      // The pass reads text, arguments and usage; the provider's raw reply is stored above and
      // dropped here, so 100,000 replies held for the pass stay small. The reply was read from
      // this result alone and nothing else holds it, so it loses its raw part in place: a copy per
      // result was about 2% of the ingest's time.
      reply.raw = null
      o.answered?.set(req.callKey, { callId, reply })
    }
  }
  const apply = (r: BatchResult) => {
    const req = requests.get(r.customId)
    if (req) tally.matched++
    if (req?.state !== 'waiting') return
    if (r.kind === 'unfinished') {
      req.state = 'unfinished'
      setState(req.id, 'unfinished')
      tally.unfinished++
      return
    }
    if (r.kind === 'succeeded') {
      if (isObject(r.body) && o.client.readReply) {
        replies.push({ req, reply: o.client.readReply(r.body, req.tool) })
        // Its call row, written with the chunk, marks it done (REQUEST_STATE): nothing on the row.
        req.state = 'done'
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
      setRequestStatesById(o.db, [req.id], 'retry')
      req.state = 'retry'
      tally.retry++
      return
    }
    const message = redactKey(
      `${failure.message} (in a batch, after ${countOf(attempts, 'attempt')})`,
      o.apiKey,
    )
    insertBatchCall(o.db, o.runId, req, {
      status: 'error',
      reply: null,
      promptTokens: 0,
      completionTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cost: 0,
      error: message,
      finishedAt,
    })
    req.state = 'error'
    setState(req.id, 'error')
    tally.errored++
    if (kind === 'fatal') tally.fatal ??= message
  }
  const flush = () => {
    if (buffer.length === 0) return
    const chunk = buffer
    buffer = []
    try {
      relaxedWrite(o.db, () => {
        finishedAt = now()
        for (const r of chunk) apply(r)
        storeReplies()
        for (const [state, ids] of states) setRequestStatesById(o.db, ids, state)
      })
    } catch (error) {
      // Replies set aside for the pass are kept only once committed.
      for (const { req } of replies) o.answered?.delete(req.callKey)
      // Nothing of the chunk was kept: the states in hand go back to what the workspace holds.
      requests = requestIndex(o.db, o.batchId)
      throw error
    } finally {
      states = new Map()
      replies = []
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
