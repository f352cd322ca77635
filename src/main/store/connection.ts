// store/ owns the SQLite workspace file: opening it (WAL, checks), migrations, backups, and the
// repositories of prepared statements in repos/.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { busyOpenWords, STORE_TROUBLE, type StoreTrouble } from '../../shared/storeTrouble'
import { BUSY_TIMEOUT_MS } from './busyWait'
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations'
import { storageProblem } from './storageTrouble'
import { storeTrouble } from './trouble'

export type Db = Database.Database

export class WorkspaceError extends Error {
  override name = 'WorkspaceError'
  constructor(
    message: string,
    /**
     * Set when the file could not be opened for trouble that passes by itself (another FactLab
     * writing to it, a full or failing disk): nothing was changed, and opening it again later
     * works. The CLI exits 75 on it, as on any write that met such trouble.
     */
    readonly trouble: StoreTrouble | null = null,
  ) {
    super(message)
  }
}

export interface OpenOptions {
  /** Skip the integrity check (tests that open thousands of workspaces). */
  skipQuickCheck?: boolean
  readonly?: boolean
  migrations?: readonly Migration[]
  /**
   * When SQLite may not write (a read-only file, or a folder where it cannot create its journal
   * beside the file) and the file must be written to open (an update of its format), open a
   * read-only copy in memory instead of refusing: the CLI's reading commands then still work, and
   * every write is refused in plain words. Only for files small enough to hold in memory.
   */
  readOnlyCopy?: boolean
}

/** The largest workspace `readOnlyCopy` reads into memory. */
const READ_ONLY_COPY_MAX = 256 * 2 ** 20

/**
 * Opens (creating if needed) a workspace file, checks it, and brings its schema up to date.
 * A workspace written by a newer FactLab is refused rather than guessed at.
 */
export function openWorkspace(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  try {
    return openChecked(file, options)
  } catch (error) {
    if (error instanceof WorkspaceError) throw error
    const code = (error as { code?: unknown }).code
    if (
      typeof code === 'string' &&
      code.startsWith('SQLITE_READONLY') &&
      options.readOnlyCopy &&
      copyable(file)
    )
      return readOnlyCopy(file, options)
    const trouble = storeTrouble(error)
    const passing = trouble === 'readonly' ? null : trouble
    // Opening writes only to bring an older file up to date: another FactLab holding the write lock
    // past the wait is a busy workspace, not a broken one.
    if (passing === 'busy') throw new WorkspaceError(busyOpenWords(file), 'busy')
    if (passing === 'io')
      throw new WorkspaceError(`${file}: ${STORE_TROUBLE.io.what}. Nothing was changed`, 'io')
    const problem = storageProblem(error, file, 'workspace')
    if (problem) throw new WorkspaceError(`${problem}. Nothing was changed`, passing)
    const message = error instanceof Error ? error.message : String(error)
    throw new WorkspaceError(`Cannot open workspace ${file}: ${message}`)
  }
}

/** A journal left beside the file may hold commits the main file lacks: a copy would miss them. */
function copyable(file: string): boolean {
  return !existsSync(`${file}-wal`) && statSync(file).size <= READ_ONLY_COPY_MAX
}

function readOnlyCopy(file: string, options: OpenOptions): Db {
  const bytes = readFileSync(file)
  // The header's read and write versions say WAL (2), which an in-memory copy cannot use: 1 is
  // the rollback journal, and the pages are the same either way.
  if (bytes.length > 19) bytes.fill(1, 18, 20)
  const db = new Database(bytes)
  try {
    // Brought up to date in memory only (so an older file reads as well), then closed to writes.
    checkAndMigrate(db, file, { ...options, readonly: false })
    db.pragma('query_only = ON')
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

function openChecked(file: string, options: OpenOptions): Db {
  const db = new Database(file, { readonly: options.readonly ?? false })
  try {
    db.pragma('journal_mode = WAL')
    // better-sqlite3 leaves WAL databases at NORMAL, which can lose the last commits on power
    // loss; a label acknowledged to the user must survive that.
    db.pragma('synchronous = FULL')
    db.pragma('foreign_keys = ON')
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    checkAndMigrate(db, file, options)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

function checkAndMigrate(db: Db, file: string, options: OpenOptions): void {
  if (!options.skipQuickCheck) {
    const result = db.pragma('quick_check', { simple: true })
    if (result !== 'ok') throw new WorkspaceError(`${file} failed its integrity check: ${String(result)}`)
  }
  if (options.readonly) refuseNewer(db, options.migrations ?? MIGRATIONS, file)
  else migrate(db, options.migrations ?? MIGRATIONS, file)
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Applies every migration newer than the file, each in its own transaction. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS, file?: string): void {
  const current = refuseNewer(db, migrations, file)
  for (const m of migrations) {
    if (m.version <= current) continue
    db.transaction(() => {
      db.exec(m.up)
      db.pragma(`user_version = ${m.version}`)
    })()
  }
}

/** A workspace a newer FactLab wrote is refused rather than guessed at; returns its version. */
function refuseNewer(db: Db, migrations: readonly Migration[], file: string | undefined): number {
  const current = schemaVersion(db)
  const latest = migrations[migrations.length - 1]?.version ?? 0
  if (current > latest) {
    throw new WorkspaceError(
      `${file ?? 'This workspace'} was written by a newer FactLab (workspace format ${current}; this one reads formats up to ${latest}). Update FactLab to open it. Nothing was changed`,
    )
  }
  return current
}

export { LATEST_VERSION }
