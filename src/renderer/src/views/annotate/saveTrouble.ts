import { STORE_TROUBLE, troubleOf } from '../../../../shared/storeTrouble'
import { ApiError } from '../../api'

/**
 * Whether a failed save is final: the workspace answered no (the unit is gone or reworded, the
 * person stepped out of labelling, the input is wrong), which no retry can change. No answer, a
 * failure inside main, a lost token and a store that cannot take the write now (`unavailable`:
 * busy, disk full) may all pass, so the label is kept and tried again.
 */
export function isFinalRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.code !== 'failed' && error.code !== 'unavailable'
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
