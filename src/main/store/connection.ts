// store/ owns the SQLite workspace file: opening it (WAL, checks), migrations, backups, and the
// repositories of prepared statements in repos/.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations'

export type Db = Database.Database

export class WorkspaceError extends Error {
  override name = 'WorkspaceError'
}

export interface OpenOptions {
  /** Skip the integrity check (tests that open thousands of workspaces). */
  skipQuickCheck?: boolean
  readonly?: boolean
  migrations?: readonly Migration[]
}

/**
 * Opens (creating if needed) a workspace file, checks it, and brings its schema up to date.
 * A workspace written by a newer FactLab is refused rather than guessed at.
 */
export function openWorkspace(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file, { readonly: options.readonly ?? false })
  try {
    db.pragma('journal_mode = WAL')
    // better-sqlite3 leaves WAL databases at NORMAL, which can lose the last commits on power
    // loss; a label acknowledged to the user must survive that.
    db.pragma('synchronous = FULL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    if (!options.skipQuickCheck) {
      const result = db.pragma('quick_check', { simple: true })
      if (result !== 'ok') throw new WorkspaceError(`${file} failed its integrity check: ${String(result)}`)
    }
    if (!options.readonly) migrate(db, options.migrations ?? MIGRATIONS)
    return db
  } catch (error) {
    db.close()
    if (error instanceof WorkspaceError) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new WorkspaceError(`Cannot open workspace ${file}: ${message}`)
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Applies every migration newer than the file, each in its own transaction. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): void {
  const current = schemaVersion(db)
  const latest = migrations[migrations.length - 1]?.version ?? 0
  if (current > latest) {
    throw new WorkspaceError(
      `This workspace was written by a newer FactLab (schema ${current}, this app knows up to ${latest}). Update FactLab to open it.`,
    )
  }
  for (const m of migrations) {
    if (m.version <= current) continue
    db.transaction(() => {
      db.exec(m.up)
      db.pragma(`user_version = ${m.version}`)
    })()
  }
}

export { LATEST_VERSION }
