import type { StoreTrouble, TroubleKind } from '../../shared/storeTrouble'

/*
 * The one place that says what kind of trouble an error from SQLite or the file system is. Every
 * caller (dispatch's `unavailable`, the CLI's exit code, imports, exports, opening a workspace)
 * asks here; the words for each kind are in src/shared/storeTrouble.ts.
 */

/** Primary SQLite codes; extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE, …) carry theirs first. */
const SQLITE_KINDS: readonly [string, TroubleKind][] = [
  ['BUSY', 'busy'],
  ['LOCKED', 'busy'],
  ['PROTOCOL', 'busy'],
  ['FULL', 'full'],
  // Permissions changed under an open workspace: a label kept until they are put back is not lost.
  ['READONLY', 'readonly'],
  ['IOERR', 'io'],
  ['NOTADB', 'notSqlite'],
  ['CORRUPT', 'corrupt'],
]

/** The same trouble met by the file system (an export's folder, the disk under a workspace). */
const FS_KINDS: Readonly<Record<string, TroubleKind>> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'readonly',
  EACCES: 'readonly',
  EPERM: 'readonly',
}

function codeOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : null
}

/** Which trouble an error is, by its code; null for every other error (a constraint, a bug). */
export function troubleKind(error: unknown): TroubleKind | null {
  const code = codeOf(error)
  if (code === null) return null
  if (!code.startsWith('SQLITE_')) return FS_KINDS[code] ?? null
  const primary = code.slice('SQLITE_'.length).split('_')[0]
  const kind = SQLITE_KINDS.find(([c]) => c === primary)?.[1] ?? null
  // SQLite reports a write that ran out of space as an I/O error on some file systems.
  if (kind === 'io' && error instanceof Error && /disk is full|no space/i.test(error.message)) return 'full'
  return kind
}

/**
 * The workspace's store trouble that passes by itself (a lock held by another process, a full
 * disk, an I/O error, permissions taken away) rather than saying the input or the file is wrong:
 * a call that met it changed nothing (its transaction was rolled back) and may be made again
 * unchanged. Only SQLite's own errors: a file system error is about some other file (one being
 * read for an import, a folder chosen for an export), which the caller names itself.
 */
export function storeTrouble(error: unknown): StoreTrouble | null {
  if (!codeOf(error)?.startsWith('SQLITE_')) return null
  const kind = troubleKind(error)
  return kind === 'busy' || kind === 'full' || kind === 'io' || kind === 'readonly' ? kind : null
}
