import type { RpcError } from '../../../../shared/contract'
import { STORE_TROUBLE, troubleOf } from '../../../../shared/storeTrouble'

/**
 * The answers no retry can change: the workspace said no (the unit is gone or reworded, the
 * person stepped out of labelling, the input is wrong). No answer, a failure inside main, a lost
 * token and a store that cannot take the write now (`unavailable`: busy, disk full) may all pass,
 * and so may any code added later: a label is kept and tried again unless it is named here.
 */
const FINAL: ReadonlySet<RpcError['code']> = new Set(['bad_input', 'not_found', 'conflict', 'unknown_call'])

/** Whether a failed save (an ApiError, or anything else thrown on the way) is a final refusal. */
export function isFinalRefusal(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error)) return false
  return FINAL.has(error.code as RpcError['code'])
}

/** What the bar says while labels wait to be tried again, from the last failure's message. */
export function pendingMessage(reason: string): string {
  const kind = troubleOf(reason)
  if (kind !== null) {
    const { what, until } = STORE_TROUBLE[kind]
    return `Not saved yet: ${what}. Your label is kept here and will be saved ${until}.`
  }
  const end = /[.!?]$/.test(reason) ? '' : '.'
  return `Not saved yet: ${reason}${end} Your label is kept here and will be sent again.`
}
