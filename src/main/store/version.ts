import type { Db } from './connection'

/** Changes whenever the workspace file may hold different data than at the last call. */
export function workspaceVersion(db: Db): string {
  const own = db.prepare('SELECT total_changes()').pluck().get() as number
  const others = db.pragma('data_version', { simple: true }) as number
  return `${own}:${others}`
}
