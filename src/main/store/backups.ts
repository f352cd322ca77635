import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
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

/**
 * The backup taken when a workspace opens, or null when there is nothing of anyone's to keep:
 * a file this start created (`existedBefore` false) or one holding no dataset. A brand-new
 * workspace used to report "backup taken" of an empty file.
 */
export async function backupOnOpen(
  db: Db,
  workspaceFile: string,
  existedBefore: boolean,
): Promise<string | null> {
  if (!existedBefore) return null
  const datasets = db.prepare('SELECT COUNT(*) AS n FROM datasets').get() as { n: number }
  if (datasets.n === 0) return null
  return rollingBackup(db, workspaceFile)
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
