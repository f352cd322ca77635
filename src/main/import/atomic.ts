import { type Db, openWorkspace } from '../store/connection'
import { ImportError } from './errors'

/** The workspace as an import sees it: its file (to open a connection of its own) and its db. */
export interface OpenFile {
  readonly file: string
  readonly db: Db
}

/**
 * Runs a streamed import inside one transaction on a connection of its own. The transaction
 * spans awaits (the file is read as it is written), so it must not live on the shared
 * connection: a label saved from the UI meanwhile would join it and vanish with a rollback.
 * Either everything commits or nothing does.
 */
export async function inOwnTransaction<T>(ws: OpenFile, fn: (db: Db) => Promise<T>): Promise<T> {
  // An in-memory workspace (new, or a copy deserialized from another's bytes) cannot be opened
  // twice, whatever file name it is given: the connection says so, and the import shares it.
  const own = !ws.db.memory
  const db = own ? openWorkspace(ws.file, { skipQuickCheck: true }) : ws.db
  try {
    beginImmediate(db)
    try {
      const out = await fn(db)
      db.exec('COMMIT')
      return out
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK')
      throw error
    }
  } finally {
    if (own) db.close()
  }
}

/** Runs `fn` in a write transaction taken at once, so a check and the write after it agree. */
export function immediate<T>(db: Db, fn: () => T): T {
  beginImmediate(db)
  try {
    const out = fn()
    db.exec('COMMIT')
    return out
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK')
    throw error
  }
}

function beginImmediate(db: Db): void {
  try {
    db.exec('BEGIN IMMEDIATE')
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY')
      throw new ImportError(
        `${db.name} is busy with another import or write; nothing was imported, try again`,
      )
    throw error
  }
}

/** Runs one row's writes so that a failure undoes that row only (skip-bad-rows). */
export function inSavepoint(db: Db, fn: () => void): void {
  db.exec('SAVEPOINT import_row')
  try {
    fn()
    db.exec('RELEASE import_row')
  } catch (error) {
    db.exec('ROLLBACK TO import_row')
    db.exec('RELEASE import_row')
    throw error
  }
}
