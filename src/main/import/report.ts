import type { ImportWarning } from '../../shared/importWarnings'

/** What an import tells the person once it is done: the CLI prints it, the import dialog shows it. */

export interface SkippedRow {
  line: number
  /** The place as reports word it: "line 4, column 12", "record 2 of the JSON array", "row 7". */
  at: string
  reason: string
  /** In a multi-file import, the file the line is in. */
  file?: string
}

export interface ImportReport {
  dataset: string
  datasetId: number
  items: number
  candidates: number
  units: number
  annotators: number
  labels: number
  skipped: SkippedRow[]
  unmatchedFactKeys?: { line: number; variant: string; column: string; key: string }[]
  /** What was imported but deserves a look; the CLI and the import dialog both show them. */
  warnings: ImportWarning[]
  /** A multi-file import: each file, the variant it became and its rows. */
  files?: { file: string; variant: string; rows: number }[]
}
