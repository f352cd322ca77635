import type { StoreTrouble } from '../../shared/storeTrouble'

/**
 * Which SQLite failures pass by themselves (a lock held by another process, a full disk, an I/O
 * error) rather than say the input or the file is wrong. A call that meets one changed nothing
 * (its transaction was rolled back) and may be made again unchanged.
 */
export function storeTrouble(error: unknown): StoreTrouble | null {
  if (!(error instanceof Error)) return null
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null
  // Extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE, ...) carry their primary code first.
  if (/^SQLITE_(BUSY|LOCKED|PROTOCOL)(_|$)/.test(code)) return 'busy'
  if (/^SQLITE_FULL(_|$)/.test(code)) return 'full'
  // Permissions changed under an open workspace: a label kept until they are put back is not lost.
  if (/^SQLITE_READONLY(_|$)/.test(code)) return 'readonly'
  if (/^SQLITE_IOERR(_|$)/.test(code)) {
    // SQLite reports a write that ran out of space as an I/O error on some file systems.
    return /disk is full|no space/i.test(error.message) ? 'full' : 'io'
  }
  return null
}
