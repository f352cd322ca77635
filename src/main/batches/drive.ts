import { countOf } from '../../shared/plural'
import type { CandidateTask, JudgeContext, JudgeMethodImpl } from '../judges/types'
import type { BatchApi } from '../providers/batch/types'
import type { ProviderClient } from '../providers/client'
import { toTransportError } from '../providers/errors'
import { redactKey } from '../providers/keys'
import type { LlmReply } from '../providers/types'
import { classifyFailure, RunFatal, RunStopped } from '../runs/caller'
import type { RunConfig } from '../runs/config'
import { backoffDelay, type Clock } from '../runs/limits'
import type { RunRecord } from '../runs/repo'
import type { Db } from '../store/connection'

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

/** A provider call's outcome under the engine's retry rule: a final failure is a value. */
export type Retried<T> = { ok: true; value: T } | { ok: false; error: string }

/** What one drive of a batch run shares between its steps (submit, settle, pass). */
export interface Drive extends BatchDriverOptions {
  config: RunConfig
  /** Keys whose batch returned a final error during this drive: the method sees that error. */
  failedNow: Set<string>
  /** Requests of ended batches that got no result, said when the drive stops. */
  unfinished: string[]
  /** Replies read since the last pass, handed to it without a round trip through the workspace. */
  answered: Map<string, { callId: number; reply: LlmReply }>
  /**
   * The run's candidates as a pass of this drive loaded them, kept for the next pass while the
   * dataset's targets are the same (reloading them took about 6% of ingesting a large batch).
   */
  tasks: CandidateTask[] | null
  sleep(ms: number): Promise<void>
  /** The text with the API key taken out. */
  scrub(text: string): string
  withRetry<T>(what: string, fn: () => Promise<T>): Promise<Retried<T>>
}

export function startDrive(o: BatchDriverOptions): Drive {
  const config = o.run.config
  const sleep = (ms: number) =>
    o.clock.sleep(ms, o.signal).catch(() => {
      throw new RunStopped('stopped')
    })
  const scrub = (t: string) => redactKey(t, o.apiKey)
  async function withRetry<T>(what: string, fn: () => Promise<T>): Promise<Retried<T>> {
    for (let attempt = 1; ; attempt++) {
      if (o.signal.aborted) throw new RunStopped('stopped')
      try {
        return { ok: true, value: await fn() }
      } catch (error) {
        if (o.signal.aborted) throw new RunStopped('stopped')
        const t = toTransportError(error)
        const kind = classifyFailure(t)
        if (kind === 'fatal') throw new RunFatal(scrub(`${what}: ${t.message}`))
        if (kind === 'final' || attempt >= config.maxAttempts)
          return {
            ok: false,
            error: scrub(`${what}: ${t.message} (after ${countOf(attempt, 'attempt')})`),
          }
        await sleep(backoffDelay(attempt, { baseMs: config.backoffMs, retryAfterMs: t.retryAfterMs }))
      }
    }
  }
  return {
    ...o,
    config,
    failedNow: new Set(),
    unfinished: [],
    answered: new Map(),
    tasks: null,
    sleep,
    scrub,
    withRetry,
  }
}
