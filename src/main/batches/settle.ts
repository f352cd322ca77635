import type { BatchState } from '../providers/batch/types'
import { RunFatal, RunStopped } from '../runs/caller'
import { backoffDelay } from '../runs/limits'
import type { Drive } from './drive'
import { resultIngester } from './ingest'
import { NEVER_SENT } from './leave'
import { type BatchRow, getBatch, listBatches, markUnanswered, recordState, setIngested } from './repo'
import { refuse, submit } from './submit'

/** Reads an ended batch's results into the run; a broken download is read again. */
async function ingest(d: Drive, b: BatchRow): Promise<void> {
  const { db, run, config } = d
  if (b.error && !b.outputFileId && !b.errorFileId)
    return refuse(d, b, d.scrub(`the provider refused the batch: ${b.error}`))
  const ing = resultIngester({
    db,
    runId: run.id,
    batchId: b.id,
    config,
    client: d.client,
    apiKey: d.apiKey,
    answered: d.answered,
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
      await d.api.results(state, (r) => ing.push(r), d.signal)
      ing.flush()
      break
    } catch (error) {
      ing.flush()
      if (d.signal.aborted) throw new RunStopped('stopped')
      const message = d.scrub(error instanceof Error ? error.message : String(error))
      if (attempt >= config.maxAttempts + 2)
        throw new RunFatal(
          `could not read the results of batch ${b.providerBatchId}: ${message}; judge resume ${run.id} reads them again`,
        )
      await d.sleep(backoffDelay(attempt, { baseMs: Math.max(config.backoffMs, 1) }))
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
  for (const k of left.erroredKeys) d.failedNow.add(k)
  if (ing.tally.fatal) throw new RunFatal(ing.tally.fatal)
  if (ing.tally.unfinished + missing > 0)
    d.unfinished.push(
      `${ing.tally.unfinished + missing} request(s) of batch ${b.providerBatchId} (${b.providerStatus})`,
    )
}

/**
 * Brings every open batch of the run to an end and reads it, polling with backoff. A run gone
 * call by call (`send` false) sends no batch left unsent: its requests go out one by one.
 */
export async function settle(d: Drive, send = true): Promise<void> {
  const { db, run, api } = d
  const poll = d.poll ?? { firstMs: 5_000, maxMs: 60_000 }
  for (const b of listBatches(db, run.id))
    if (b.state === 'preparing' || b.state === 'uploaded' || b.state === 'submitting') {
      if (send) await submit(d, b)
      else {
        markUnanswered(db, b.id)
        setIngested(db, b.id, NEVER_SENT)
      }
    }
  let delay = poll.firstMs
  for (;;) {
    const open = listBatches(db, run.id).filter((b) => b.state !== 'ingested')
    if (open.length === 0) return
    let changed = false
    for (const b of open) {
      if (b.state === 'submitted' && b.providerBatchId) {
        const got = await d.withRetry('checking the batch', () =>
          api.retrieve(b.providerBatchId as string, d.signal),
        )
        if (got.ok) {
          const before = JSON.stringify(b.counts)
          recordState(db, b.id, got.value)
          if (JSON.stringify(got.value.counts) !== before || got.value.phase === 'ended') changed = true
        }
      }
      const now = getBatch(db, b.id)
      if (now.state === 'ended') {
        await ingest(d, now)
        changed = true
      }
    }
    const all = listBatches(db, run.id).filter((b) => b.state !== 'ingested')
    if (all.length === 0) return
    const answered = all.reduce((n, b) => n + b.counts.succeeded + b.counts.errored, 0)
    d.progress(
      answered,
      all.reduce((n, b) => n + b.requests, 0),
    )
    delay = changed ? poll.firstMs : Math.min(poll.maxMs, delay * 2)
    await d.sleep(delay)
  }
}
