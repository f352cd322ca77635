import { accessSync, constants, existsSync, statfsSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { type StorageFacts, storageWords, type TroubleKind } from '../../shared/storeTrouble'
import { troubleKind } from './trouble'

/*
 * SQLite and the file system speak of "database or disk is full" or "attempt to write a readonly
 * database" without saying which disk, file or folder. This module looks at the place the error
 * happened (free space, who may write what) so the words in src/shared/storeTrouble.ts can name
 * it; which kind of trouble it is comes from trouble.ts.
 */

/** Bytes free to this user on the disk holding `path` (its nearest existing folder), if known. */
export function freeBytes(path: string): number | null {
  let dir = path
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir)
  try {
    const s = statfsSync(dir)
    return Number(s.bavail) * Number(s.bsize)
  } catch {
    return null
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

function factsOf(kind: TroubleKind, given: string, code: string | undefined): StorageFacts {
  const path = resolve(given)
  const folder = dirname(path)
  return {
    kind,
    path,
    folder,
    name: basename(path),
    free: kind === 'full' ? freeBytes(path) : null,
    // SQLite says which of the two when it knows; otherwise the permissions tell.
    fileReadOnly:
      kind === 'readonly' && code !== 'SQLITE_READONLY_DIRECTORY' && existsSync(path) && !writable(path),
    folderReadOnly: kind === 'readonly' && (code === 'SQLITE_READONLY_DIRECTORY' || !writable(folder)),
  }
}

/**
 * The plain sentence for a storage error at `path` (a workspace file, or a file an export
 * writes), or null when the error is of another kind. It says what is wrong and where, never
 * what was or was not saved: the caller knows that.
 */
export function storageProblem(error: unknown, path: string, role: 'workspace' | 'export'): string | null {
  const kind = troubleKind(error)
  if (kind === null) return null
  const code = (error as { code?: unknown }).code
  return storageWords(factsOf(kind, path, typeof code === 'string' ? code : undefined), role)
}

/** `storageProblem` with what to do next, for a step that stopped on it; null for other errors. */
export function storageRefusal(error: unknown, path: string): string | null {
  const problem = storageProblem(error, path, 'workspace')
  if (!problem) return null
  return troubleKind(error) === 'full' ? `${problem}: free some space there and try again` : problem
}
