import Database from 'better-sqlite3'
import type { Workspace } from '../app/workspace'
import type { Db } from '../store/connection'

/**
 * The connection a dataset export reads through. Its statements stay open between batches of
 * rows, and better-sqlite3 refuses every other statement on a connection while one is open, so an
 * export that lets other requests in between batches (exportPace.ts) reads through a connection
 * of its own: read-only, on one snapshot of the file (WAL lets the app write meanwhile). A
 * workspace held in memory (the CLI's read-only copy) has no file to open again: the export reads
 * the main connection and lets nobody in until it ends, as before.
 */
export interface ExportReader {
  db: Db
  /** Whether other requests may be answered between batches. */
  shared: boolean
  close(): void
}

export function exportReader(ws: Workspace): ExportReader {
  const own = { db: ws.db, shared: false, close() {} }
  if (ws.db.memory || ws.file === ':memory:') return own
  let db: Db
  try {
    db = new Database(ws.file, { readonly: true, fileMustExist: true })
  } catch {
    return own
  }
  try {
    db.pragma('busy_timeout = 5000')
    db.prepare('SELECT COUNT(*) FROM datasets').pluck().get()
  } catch {
    db.close()
    return own
  }
  return { db, shared: true, close: () => db.close() }
}

/** Runs `fn` on one snapshot of the reader's connection (a read transaction held across awaits). */
export async function onOneSnapshot<T>(reader: ExportReader, fn: () => Promise<T>): Promise<T> {
  const db = reader.db
  if (db.inTransaction) return fn()
  db.prepare('BEGIN').run()
  try {
    return await fn()
  } finally {
    if (db.inTransaction) db.prepare('COMMIT').run()
  }
}
