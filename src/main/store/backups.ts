import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import { type Db, openWorkspace, WorkspaceError } from './connection'

/** Rolling backups live beside the workspace, never inside it. */
export function backupDir(workspaceFile: string): string {
  return join(dirname(workspaceFile), `${basename(workspaceFile)}.backups`)
}

/** A consistent copy through SQLite's online backup, safe while the workspace is in use. */
export async function backupTo(db: Db, destination: string): Promise<string> {
  mkdirSync(dirname(destination), { recursive: true })
  await db.backup(destination)
  return destination
}

function stamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-')
}

export interface BackupInfo {
  file: string
  bytes: number
  createdAt: string
}

export function listBackups(workspaceFile: string): BackupInfo[] {
  const dir = backupDir(workspaceFile)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => f.endsWith('.factlab'))
    .sort()
    .reverse()
    .map((f) => {
      const file = join(dir, f)
      const st = statSync(file)
      return { file, bytes: st.size, createdAt: st.mtime.toISOString() }
    })
}

/** Takes an automatic backup and keeps only the newest `keep`. */
export async function rollingBackup(db: Db, workspaceFile: string, keep = 5): Promise<string> {
  const file = join(backupDir(workspaceFile), `${stamp()}.factlab`)
  await backupTo(db, file)
  for (const old of listBackups(workspaceFile).slice(keep)) rmSync(old.file, { force: true })
  return file
}

/** What the start of a session did about backups, for the person to read. */
export interface BackupOutcome {
  file: string
  bytes: number
  createdAt: string
  /** The newest backup already holds this very file, so none was taken. */
  reused: boolean
}

/** Kept beside the backups: the workspace file as it stood right after the newest was taken. */
const MARK = 'newest-backup.json'
const Mark = z.object({ backup: z.string(), size: z.number(), mtimeMs: z.number() })

function fileState(file: string): { size: number; mtimeMs: number } {
  const st = statSync(file)
  return { size: st.size, mtimeMs: st.mtimeMs }
}

/**
 * Whether the workspace is byte for byte what the newest backup copied: the file has not been
 * written since (same size and time), and no journal holds later commits.
 */
function unchangedSince(workspaceFile: string, newest: BackupInfo): boolean {
  try {
    const mark = Mark.parse(JSON.parse(readFileSync(join(backupDir(workspaceFile), MARK), 'utf8')))
    if (mark.backup !== basename(newest.file)) return false
    const wal = `${workspaceFile}-wal`
    if (existsSync(wal) && statSync(wal).size > 0) return false
    const now = fileState(workspaceFile)
    return now.size === mark.size && now.mtimeMs === mark.mtimeMs
  } catch {
    return false // no mark, or one from another time: take a backup
  }
}

/**
 * Moves every commit into the file itself, so its size and time say what the backup holds. Only
 * when nobody else is reading or writing it meanwhile; otherwise no mark, and the next open backs
 * up again.
 */
function markBackup(db: Db, workspaceFile: string, backup: string): void {
  rmSync(join(backupDir(workspaceFile), MARK), { force: true })
  try {
    const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number }[]
    if (r?.busy !== 0 || r.log > 0) return
    const mark = { backup: basename(backup), ...fileState(workspaceFile) }
    writeFileSync(join(backupDir(workspaceFile), MARK), JSON.stringify(mark))
  } catch {
    // Without a mark the next open simply takes a backup.
  }
}

/**
 * The backup a workspace gets when it opens, before anyone writes: null when there is nothing of
 * anyone's to keep (a file this start created, `existedBefore` false, or one holding no dataset).
 * A workspace unchanged since its newest backup is not copied again: a large one took seconds and
 * its whole size in free disk at every start, for a copy equal to the last.
 */
export async function backupOnOpen(
  db: Db,
  workspaceFile: string,
  existedBefore: boolean,
): Promise<BackupOutcome | null> {
  if (!existedBefore || db.memory) return null
  const datasets = db.prepare('SELECT COUNT(*) AS n FROM datasets').get() as { n: number }
  if (datasets.n === 0) return null
  const newest = listBackups(workspaceFile)[0]
  if (newest && unchangedSince(workspaceFile, newest)) return { ...newest, reused: true }
  const file = await rollingBackup(db, workspaceFile)
  markBackup(db, workspaceFile, file)
  const st = statSync(file)
  return { file, bytes: st.size, createdAt: st.mtime.toISOString(), reused: false }
}

/**
 * Replaces a closed workspace with a backup in one step. The current file is kept beside it
 * (`.before-restore`) so a restore is itself undoable.
 */
export function restoreBackup(backupFile: string, workspaceFile: string): void {
  if (!existsSync(backupFile)) throw new WorkspaceError(`No backup at ${backupFile}`)
  // Opening checks integrity and schema before anything is replaced.
  openWorkspace(backupFile, { readonly: true }).close()
  if (existsSync(workspaceFile)) {
    renameSync(workspaceFile, `${workspaceFile}.before-restore`)
    for (const side of ['-wal', '-shm']) rmSync(`${workspaceFile}${side}`, { force: true })
  }
  copyFileSync(backupFile, workspaceFile)
}
