import type { Db } from './connection'

/** Changes whenever the workspace file may hold different data than at the last call. */
export function workspaceVersion(db: Db): string {
  const own = db.prepare('SELECT total_changes()').pluck().get() as number
  const others = db.pragma('data_version', { simple: true }) as number
  return `${own}:${others}`
}

/** Per connection: rows its reads stored in cache tables (label and target blocks). */
const cacheRows = new WeakMap<Db, number>()

/**
 * Counts rows a read stored in a cache table: they are copies of other rows and change no data,
 * though they move this connection's change count.
 */
export function countCacheWrites(db: Db, rows: number): void {
  cacheRows.set(db, (cacheRows.get(db) ?? 0) + rows)
}

/**
 * `workspaceVersion` leaving out this connection's cache writes: what a result read on another
 * connection is checked against, so a view storing blocks meanwhile does not void it.
 */
export function dataVersion(db: Db): string {
  const own = db.prepare('SELECT total_changes()').pluck().get() as number
  const others = db.pragma('data_version', { simple: true }) as number
  return `${own - (cacheRows.get(db) ?? 0)}:${others}`
}
