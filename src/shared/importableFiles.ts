/**
 * Which files in a folder an import reads: one list for the CLI's folder expansion and the
 * import dialog's "Choose folder…", so a folder picked in either imports the same files. A file
 * named on its own is read whatever its name (the layout is detected from its content).
 */
export const IMPORTABLE_EXTENSIONS = [
  '.json',
  '.jsonl',
  '.ndjson',
  '.csv',
  '.tsv',
  '.tab',
  '.parquet',
] as const

/** The kinds of file a folder import reads, as a sentence says them. */
export const IMPORTABLE_KINDS = 'JSONL, JSON, CSV, TSV or Parquet'

/** Whether a file in a folder is read by a folder import: by its extension, in any case. */
export function isImportableName(name: string): boolean {
  const dot = name.lastIndexOf('.')
  return dot > 0 && (IMPORTABLE_EXTENSIONS as readonly string[]).includes(name.slice(dot).toLowerCase())
}

/** Whether a path inside a folder passes through a hidden file or folder (skipped, as `ls` hides them). */
export function isHiddenPath(relativePath: string): boolean {
  return relativePath.split(/[\\/]/).some((part) => part.startsWith('.'))
}

/** The refusal of a folder with nothing a folder import reads. */
export function nothingImportable(folder: string): string {
  return `${folder}: the folder holds no ${IMPORTABLE_KINDS} file (by extension: ${IMPORTABLE_EXTENSIONS.join(' ')}), so there is nothing to import.`
}

/** Paths in the order a folder import reads them: name order within each folder, as the CLI walks. */
export function comparePaths(a: string, b: string): number {
  const x = a.split(/[\\/]/)
  const y = b.split(/[\\/]/)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1
  return x.length - y.length
}
