import { countOf } from './plural'
import { ALL_REUSED, reusedWords } from './reusedReplies'

/**
 * How many calls a run has made, in the same words on the Judges view and in `judge status`:
 * every call counts (answered by the provider, from the response cache, or failed). An Improve
 * (RAI) run plans no calls up front, so it has no "of N".
 */
export interface RunCallCounts {
  status: string
  /** Answered by the provider (not a reused reply). */
  calls: number
  /** Answered with a reply FactLab held for an identical request (reusedReplies.ts): not sent. */
  cached: number
  callErrors: number
  /** Calls the run plans; null before its first start. */
  totalCalls: number | null
}

export const callsMadeOf = (r: RunCallCounts): number => r.calls + r.cached + r.callErrors

export function callCountWords(r: RunCallCounts): string {
  const made = callsMadeOf(r)
  const planned = r.totalCalls !== null && r.totalCalls > 0 && r.totalCalls >= made ? r.totalCalls : null
  if (planned !== null) return `${made} of ${countOf(planned, 'call')}`
  if (made === 0 && r.totalCalls === null && r.status === 'queued')
    return 'no calls yet (the run has not started)'
  return countOf(made, 'call')
}

/**
 * The calls with how they were answered, in the same words in `judge run`, `judge status` and the
 * Judges view: "30 of 30 calls, all replies reused, nothing sent" rather than "0 calls (30
 * reused)" in one place and "30 of 30 calls (30 reused)" in another; "165 of 165 calls (12
 * replies reused, 2 failed)", and nothing in brackets when no reply was reused and none failed.
 * `failed`: say the failed calls here too (the Judges view says them on a line of their own).
 */
export function callWords(r: RunCallCounts, failed = true): string {
  if (r.calls === 0 && r.cached > 0 && r.callErrors === 0) return `${callCountWords(r)}, ${ALL_REUSED}`
  const notes = [
    ...(r.cached > 0 ? [reusedWords(r.cached)] : []),
    ...(failed && r.callErrors > 0 ? [`${r.callErrors} failed`] : []),
  ]
  return notes.length > 0 ? `${callCountWords(r)} (${notes.join(', ')})` : callCountWords(r)
}
