import Database from 'better-sqlite3'
import { vi } from 'vitest'

const HIDDEN_ITEMS =
  "SELECT COUNT(*) FROM items i JOIN datasets d ON d.id = i.dataset_id WHERE d.state = 'importing'"

/**
 * The disk fills up once an import has written its first rows: from then on every write
 * transaction fails as SQLite fails on a full disk, the import's withdrawal too (clean-ups fail
 * as well, the disk staying full). `vi.restoreAllMocks()` frees the space again.
 */
export function fillDiskAfterFirstRows(): void {
  const exec = Database.prototype.exec
  vi.spyOn(Database.prototype, 'exec').mockImplementation(function (this: Database.Database, sql: string) {
    if (sql === 'BEGIN IMMEDIATE') {
      const written = this.prepare(HIDDEN_ITEMS).pluck().get() as number
      if (written > 0) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL')
    }
    return exec.call(this, sql)
  })
}

/** Items of imports that have not finished (hidden), read from the file as another process would. */
export function hiddenItems(file: string): number {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(HIDDEN_ITEMS).pluck().get() as number
  } finally {
    db.close()
  }
}
