import { countOf } from './plural'

/*
 * A provider batch's state in words, for the Judges view's batch rows and `judge status`, so both
 * say the same and neither calls a batch the provider never took "ingested". Pure.
 */

export interface BatchFacts {
  providerBatchId: string | null
  state: 'preparing' | 'uploaded' | 'submitting' | 'submitted' | 'ended' | 'ingested'
  providerStatus: string | null
  requests: number
  succeeded: number
  errored: number
  processing: number
  /** Requests it did not answer (cancelled by a switch to call by call, or failed) answered call by call since. */
  answeredSince?: number
  error: string | null
}

/** The batch never came into being at the provider (upload or create failed): its requests became failed calls. */
export function batchRefused(b: Pick<BatchFacts, 'providerBatchId' | 'state'>): boolean {
  return b.state === 'ingested' && b.providerBatchId === null
}

/** What the batch is doing, from the person's side: where it is, not the store's step name. */
export function batchStateWords(b: BatchFacts): string {
  const provider = b.providerStatus ? ` (provider: ${b.providerStatus})` : ''
  switch (b.state) {
    case 'preparing':
      return 'not sent yet: its file is being uploaded'
    case 'uploaded':
      return 'file uploaded, batch not created yet'
    case 'submitting':
      return 'being created at the provider'
    case 'submitted':
      return `at the provider, answers pending${provider}`
    case 'ended':
      return `ended at the provider, answers being read${provider}`
    case 'ingested':
      return batchRefused(b)
        ? `never created at the provider, so none of it was sent${b.error ? `: ${b.error}` : ''}`
        : `answers read${provider}`
  }
}

/**
 * The batch's requests: answered, failed and still out, against the whole. A request the batch
 * did not answer but a call did since (the run went on call by call) is answered, not failed.
 */
export function batchCountWords(b: BatchFacts): string {
  const since = b.answeredSince ?? 0
  if (batchRefused(b) && since === 0) return `${countOf(b.requests, 'request')} failed`
  const how = since > 0 ? ` (${b.succeeded} in the batch, ${since} call by call after it)` : ''
  const parts = [`${b.succeeded + since}/${b.requests} answered${how}`]
  if (b.errored > 0) parts.push(`${b.errored} failed`)
  if (b.processing > 0) parts.push(`${b.processing} pending`)
  return parts.join(', ')
}

/** The batch's name: the provider's id, or why it has none. */
export function batchIdWords(b: BatchFacts): string {
  if (b.providerBatchId) return b.providerBatchId
  return batchRefused(b) ? 'no provider id' : 'no provider id yet'
}
