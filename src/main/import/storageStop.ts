import { countOf } from '../../shared/plural'
import { STORE_TROUBLE, type StoreTrouble } from '../../shared/storeTrouble'
import { storageProblem } from '../store/storageTrouble'
import { storeTrouble, troubleKind } from '../store/trouble'
import { ImportStopped } from './errors'

/** What an import that stopped left behind, hidden, because its withdrawal was refused too. */
export interface KeptRows {
  dataset: string
  /** Items it had written; null when even counting them failed. */
  items: number | null
}

/** What to do about each passing trouble before importing again. */
const AGAIN: Record<StoreTrouble, string> = {
  full: 'free some space there and import again',
  busy: 'import again as soon as it is free',
  io: 'import again when the disk answers again',
  readonly: 'import again once it can be written',
}

/** The trouble itself in words: the place where there is one (storageTrouble.ts), else its kind's words. */
function problemWords(error: unknown, workspaceFile: string, kind: StoreTrouble | null): string | null {
  const placed = storageProblem(error, workspaceFile, 'workspace')
  if (placed) return placed
  if (kind === null) return null
  const { what } = STORE_TROUBLE[kind]
  return `${what[0]!.toUpperCase()}${what.slice(1)}`
}

/**
 * What an import that stopped on store trouble (a full disk, a busy, failing or read-only
 * workspace) says: what happened, where, that nothing was imported, and what it kept, named, with
 * how to withdraw it. Null for any other error.
 */
export function importStorageError(
  error: unknown,
  workspaceFile: string,
  kept: KeptRows | null,
): ImportStopped | null {
  const found = troubleKind(error)
  if (found === null) return null
  // Not a damaged or foreign file: those are refused when the workspace opens, never mid-import.
  const kind = found === 'notSqlite' || found === 'corrupt' ? null : found
  const problem = problemWords(error, workspaceFile, kind)
  if (!problem) return null
  const again = kind ? AGAIN[kind] : ''
  const until = kind ? STORE_TROUBLE[kind].until : 'once it can be written again'
  const written =
    kept?.items == null
      ? 'The rows it had written are'
      : `The ${countOf(kept.items, 'item')} it had written are`
  return new ImportStopped(
    `${problem}: the import stopped and nothing was imported` +
      (again ? `; ${again}` : '') +
      (kept
        ? `. ${written} kept, hidden, as the incomplete import “${kept.dataset}”: the Datasets view and \`factlab datasets\` show it; withdraw it there or with \`factlab withdraw-import "${kept.dataset}"\` ${until} (FactLab also removes it the next time it opens this workspace and can write to it)`
        : ''),
    // Only SQLite's own trouble is the workspace's: it passes (a read-only file too, once its
    // permissions are put back), and the same import goes through later, as every other refused write.
    kind !== null && storeTrouble(error) !== null,
  )
}
