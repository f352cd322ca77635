import { countOf } from '../../shared/plural'
import type { BatchApi, BatchState } from '../providers/batch/types'
import type { Db } from '../store/connection'
import { stmt } from '../store/statements'
import {
  getBatch,
  knownProviderIds,
  listBatches,
  markUnanswered,
  recordState,
  STILL_WAITING,
  setAdopted,
  setIngested,
} from './repo'

/** What leaving batch mode did to one of the run's open batches. */
export interface LeftBatch {
  /** The provider's id, or ours (`batch 3`) for one never sent. */
  name: string
  /** Requests it held that had no answer yet. */
  waiting: number
  how: 'cancelled' | 'already ended' | 'never sent'
}

export const NEVER_SENT = 'never sent: the run went on call by call'

const waitingIn = (db: Db, batchId: number): number =>
  (
    stmt(db, `SELECT COUNT(*) AS n FROM run_batch_requests r WHERE batch_id = ? AND ${STILL_WAITING}`).get(
      batchId,
    ) as { n: number }
  ).n

/**
 * Before a batch run goes on call by call: every batch still open at the provider is cancelled,
 * so no request is answered (and paid) twice; its answers are read by the run's next drive (see
 * settle). Every provider call comes first: when one fails, the error is thrown and no batch not
 * yet cancelled has changed here. A batch never created at the provider is closed unsent.
 */
export async function cancelOpenBatches(
  db: Db,
  runId: number,
  api: BatchApi,
  signal: AbortSignal,
): Promise<LeftBatch[]> {
  const open = listBatches(db, runId).filter((b) => b.state !== 'ingested')
  const cancelled = new Map<number, BatchState>()
  const unsent: number[] = []
  for (const b of open) {
    let providerId = b.providerBatchId
    if (!providerId && b.state === 'submitting') {
      // Killed during the create call: the provider may hold it all the same.
      const found = await api.findCreated(
        { fileId: b.inputFileId, requests: b.requests, since: b.submitStartedAt ?? b.createdAt },
        knownProviderIds(db, api.provider),
        new AbortController().signal,
      )
      if (found) {
        setAdopted(db, b.id)
        recordState(db, b.id, found)
        providerId = found.id
      }
    }
    if (!providerId) unsent.push(b.id)
    else if (getBatch(db, b.id).state !== 'ended') cancelled.set(b.id, await api.cancel(providerId, signal))
  }
  const out: LeftBatch[] = []
  for (const b of open) {
    const waiting = waitingIn(db, b.id)
    const state = cancelled.get(b.id)
    if (state) {
      recordState(db, b.id, state)
      out.push({ name: state.id, waiting, how: 'cancelled' })
    } else if (unsent.includes(b.id)) {
      markUnanswered(db, b.id)
      setIngested(db, b.id, NEVER_SENT)
      out.push({ name: `batch ${b.id}`, waiting, how: 'never sent' })
    } else out.push({ name: b.providerBatchId ?? `batch ${b.id}`, waiting, how: 'already ended' })
  }
  return out
}

/** What the person is told: which batches were cancelled and what becomes of their requests. */
export function leftBatchWords(left: readonly LeftBatch[]): string {
  const parts = left.map((b) =>
    b.how === 'cancelled'
      ? `cancelled ${b.name} with ${countOf(b.waiting, 'request')} waiting`
      : b.how === 'never sent'
        ? `${b.name} was never sent (${countOf(b.waiting, 'request')})`
        : `${b.name} had already ended`,
  )
  const waiting = left.reduce((n, b) => n + b.waiting, 0)
  const rest =
    waiting === 0
      ? 'no request was left waiting'
      : `the ${countOf(waiting, 'request')} left ${waiting === 1 ? 'goes' : 'go'} call by call`
  return `${parts.join('; ')}; whatever was answered before is kept, and ${rest}`
}
