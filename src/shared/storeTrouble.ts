/**
 * Passing trouble of the workspace's store: the file is busy (another program holds the write
 * lock), the disk is full, or the disk failed a read or write. Nothing was refused: the same
 * call can go through later. Main words its error with `what`; the labelling screen reads the
 * kind back from that wording to say how long it will keep the label.
 */
export type StoreTrouble = 'busy' | 'full' | 'io' | 'readonly'

/**
 * Every kind of trouble main's classifier (src/main/store/trouble.ts) tells apart: the passing
 * ones above, a file that is not a workspace at all, and a damaged one.
 */
export type TroubleKind = StoreTrouble | 'notSqlite' | 'corrupt'

export const STORE_TROUBLE: Record<StoreTrouble, { what: string; until: string }> = {
  busy: {
    what: 'the workspace is busy (another program, such as an import or a judge run, is writing to it)',
    until: 'as soon as it is free',
  },
  full: { what: 'the disk is full', until: 'when there is room' },
  readonly: {
    what: 'the workspace file cannot be written (it or its folder became read-only)',
    until: 'once it can be written again',
  },
  io: {
    what: 'the workspace file could not be written (the disk or its file system reported an error)',
    until: 'when the disk answers again',
  },
}

/** The message of a call that met store trouble: plain for the CLI and for scripts. */
export function storeTroubleMessage(kind: StoreTrouble): string {
  const { what, until } = STORE_TROUBLE[kind]
  return `${what[0]!.toUpperCase()}${what.slice(1)}: nothing was changed. Try again ${until}.`
}

/**
 * A workspace that could not be opened because another FactLab (or another program) held its
 * write lock while this one had to bring the file up to date: the CLI, the open dialog and
 * browser mode all say this.
 */
export function busyOpenWords(path: string): string {
  return `The workspace ${path} is busy: another FactLab (or another program, such as an import or a judge run) has it open and is writing to it, and this FactLab must first bring the file up to date. Nothing was changed. Open it again as soon as it is free`
}

/** Which trouble a message of `storeTroubleMessage` names; null for any other message. */
export function troubleOf(message: string): StoreTrouble | null {
  const lower = message.toLowerCase()
  for (const kind of Object.keys(STORE_TROUBLE) as StoreTrouble[])
    if (lower.startsWith(STORE_TROUBLE[kind].what)) return kind
  return null
}

/*
 * The words for storage trouble at a named place (a workspace file, an export's folder): pure, so
 * every wording can be checked without a full disk or a read-only folder. main's
 * store/storageTrouble.ts gathers the facts these sentences name.
 */

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

/**
 * The sentence naming the place, for the kinds that have one (full, read-only, not SQLite); null
 * for the others, which `storeTroubleMessage` words without a place.
 */
export function storageWords(f: StorageFacts, role: 'workspace' | 'export'): string | null {
  if (f.kind === 'notSqlite') return `${f.path} is not a FactLab workspace (not an SQLite file)`
  if (f.kind === 'full') {
    const free = f.free === null ? '' : ` (${sizeWords(f.free)} free)`
    return `The disk holding ${f.path} is full${free}`
  }
  if (f.kind !== 'readonly') return null
  if (role === 'export') return `FactLab may not write in ${f.path}: choose a folder you can write to`
  if (f.fileReadOnly)
    return `The workspace file ${f.path} is read-only: FactLab can show and export what it holds but not change it; make the file writable (chmod u+w) to change it`
  if (f.folderReadOnly)
    return `The folder ${f.folder} is not writable: SQLite needs to create its journal (${f.name}-wal and ${f.name}-shm) beside the workspace file; make the folder writable, or copy the workspace into a folder you can write to`
  return `The workspace file ${f.path} cannot be written (SQLite reports it read-only)`
}
