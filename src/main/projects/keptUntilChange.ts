import type { Db } from '../store/connection'
import { dataVersion } from '../store/version'

/**
 * Results kept per connection while the workspace holds the same data: the Project view asked
 * for again (a reload, a return to the tab) answers from them instead of reading a million labels
 * again. Any write through this connection, or a commit from another process, moves the data
 * version; the block caches a read stores do not (store/version.ts). Results of an older version
 * are dropped when a newer one is kept.
 */
const kept = new WeakMap<Db, { version: string; values: Map<string, unknown> }>()

export function keptUntilChange<T>(db: Db, name: string, compute: () => T): T {
  const version = dataVersion(db)
  const hit = kept.get(db)
  if (hit?.version === version && hit.values.has(name)) return hit.values.get(name) as T
  const value = compute()
  // Kept under the version read before: a change committed meanwhile makes the next call read again.
  const entry = kept.get(db)
  if (entry?.version === version) entry.values.set(name, value)
  else kept.set(db, { version, values: new Map([[name, value]]) })
  return value
}

/** Whether a result of this name is kept for the workspace as it is now. */
export function isKept(db: Db, name: string): boolean {
  const hit = kept.get(db)
  return hit?.version === dataVersion(db) && hit.values.has(name)
}
