/** A file that cannot be imported. The message names the file, the line or row and the field. */
export class ImportError extends Error {
  override name = 'ImportError'
}

/**
 * One row that cannot become an item. Carries the field at fault; the importer adds the file
 * and line, and either aborts or (with skip-bad-rows) records it and goes on.
 */
export class RowError extends Error {
  override name = 'RowError'
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }

  /** "field "x": reason" — the part of a report that follows the file and line. */
  get reason(): string {
    return this.field === undefined ? this.message : `field "${this.field}": ${this.message}`
  }
}

export function locate(file: string, line: number, what: 'line' | 'row' = 'line'): string {
  return `${file}, ${what} ${line}`
}

export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return value.length > 40 ? `"${value.slice(0, 40)}…"` : `"${value}"`
  return `${typeof value} ${String(value)}`
}

/**
 * An import the workspace's store stopped part-way (a full disk, a workspace busy or failing, or
 * one that may not be written). `passing` when the trouble passes by itself (busy, full, failing):
 * the same import can simply be run again later, so the CLI exits 75 and the app's call answers
 * `unavailable`, as for every other write that met it.
 */
export class ImportStopped extends ImportError {
  override name = 'ImportStopped'
  constructor(
    message: string,
    readonly passing: boolean,
  ) {
    super(message)
  }
}
