import type Database from 'better-sqlite3'

/** How long a connection waits for another program's write lock: connection.ts sets it at open. */
export const BUSY_TIMEOUT_MS = 5000

/**
 * Runs `fn` with a shorter wait for the write lock, then puts the connection's wait back.
 * better-sqlite3 waits on the calling thread, so in the app or the server every other window's
 * call waits too: a write whose caller tries again by itself (the labelling screen's queue)
 * should give up soon and let the others through.
 */
export function withBusyTimeout<T>(db: Database.Database, ms: number, fn: () => T): T {
  const before = db.pragma('busy_timeout', { simple: true })
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`)
  try {
    return fn()
  } finally {
    db.pragma(`busy_timeout = ${typeof before === 'number' ? before : BUSY_TIMEOUT_MS}`)
  }
}
