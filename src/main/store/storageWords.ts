/*
 * The words for storage trouble: pure, so every wording can be checked without a full disk or a
 * read-only folder. storageTrouble.ts gathers the facts these sentences name.
 */

export type TroubleKind = 'full' | 'readonly' | 'notSqlite'

/** Which storage trouble an error from SQLite or the file system is, if any. */
export function troubleKind(error: unknown): TroubleKind | null {
  if (typeof error !== 'object' || error === null) return null
  const code = (error as { code?: unknown }).code
  if (typeof code !== 'string') return null
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'full'
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return 'readonly'
  if (code === 'SQLITE_NOTADB') return 'notSqlite'
  return null
}

export interface StorageFacts {
  kind: TroubleKind
  path: string
  folder: string
  name: string
  /** Bytes free on that disk, when it could be read. */
  free: number | null
  fileReadOnly: boolean
  folderReadOnly: boolean
}

/** 1.2 MB, 340 kB, 12 bytes: enough to judge how much to free. */
export function sizeWords(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`
  const units = ['kB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = ''
  for (const u of units) {
    value /= 1000
    unit = u
    if (value < 1000) break
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`
}

export function storageWords(f: StorageFacts, role: 'workspace' | 'export'): string {
  if (f.kind === 'notSqlite') return `${f.path} is not a FactLab workspace (not an SQLite file)`
  if (f.kind === 'full') {
    const free = f.free === null ? '' : ` (${sizeWords(f.free)} free)`
    return `The disk holding ${f.path} is full${free}`
  }
  if (role === 'export') return `FactLab may not write in ${f.path}: choose a folder you can write to`
  if (f.fileReadOnly)
    return `The workspace file ${f.path} is read-only: FactLab can show and export what it holds but not change it; make the file writable (chmod u+w) to change it`
  if (f.folderReadOnly)
    return `The folder ${f.folder} is not writable: SQLite needs to create its journal (${f.name}-wal and ${f.name}-shm) beside the workspace file; make the folder writable, or copy the workspace into a folder you can write to`
  return `The workspace file ${f.path} cannot be written (SQLite reports it read-only)`
}
