import type { Db } from '../store/connection'
import { dataVersion } from '../store/version'

/**
 * A result kept per connection while the workspace holds the same data: the Project view asked
 * for again (a reload, a return to the tab) answers from it instead of reading a million labels
 * again. Any write through this connection, or a commit from another process, moves the data
 * version; the block caches a read stores do not (store/version.ts). One result is kept, the
 * last asked for.
 */
const kept = new WeakMap<Db, { key: string; value: unknown }>()

export function keptUntilChange<T>(db: Db, name: string, compute: () => T): T {
  const key = `${dataVersion(db)}:${name}`
  const hit = kept.get(db)
  if (hit?.key === key) return hit.value as T
  const value = compute()
  // Keyed by the version read before: a change committed meanwhile makes the next call read again.
  kept.set(db, { key, value })
  return value
}

/** Whether a result of this name is kept for the workspace as it is now. */
export function isKept(db: Db, name: string): boolean {
  return kept.get(db)?.key === `${dataVersion(db)}:${name}`
}
