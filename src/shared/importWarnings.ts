import { z } from 'zod'
import { countOf } from './plural'

/**
 * What an import let through but the person should look at. The CLI and the import dialog both
 * word them here, so the two never tell one file's import differently.
 */

export const ImportWarningKind = z.enum([
  /** A key of a `{fact: verdict}` label dict that matched none of its item's facts. */
  'unmatchedFactKey',
  /** A fact that its answer's label dict gave no verdict. */
  'unlabelledFact',
  /** A row (without an id) with the same question, reference and answers as an earlier one. */
  'repeatedRow',
  /** The file's reference labels could not take their usual name: a person holds it. */
  'sourceRenamed',
  /** A mapping's label column filed under a person already here, as the person importing confirmed. */
  'labelsCredited',
  /** Text holding invisible characters that reorder how it displays (U+202A–U+202E, U+2066–U+2069). */
  'bidiControls',
  /** FactLab's own export brought a plan whose rates or names differ from this workspace's. */
  'plan',
])
export type ImportWarningKind = z.infer<typeof ImportWarningKind>

export const ImportWarning = z.object({
  kind: ImportWarningKind,
  /** The place in the file, worded as for a skipped row; absent when it is about the whole file. */
  at: z.string().optional(),
  /** In a multi-file import, the file it is in. */
  file: z.string().optional(),
  message: z.string(),
})
export type ImportWarning = z.infer<typeof ImportWarning>

const HEADINGS: Record<ImportWarningKind, (n: number) => string> = {
  unmatchedFactKey: (n) =>
    `${countOf(n, 'fact label key')} matched no fact (${n === 1 ? 'its label is' : 'their labels are'} kept with the item and written back by a WikiEvalFacts export)`,
  unlabelledFact: (n) =>
    `${countOf(n, 'fact has', 'facts have')} no label in ${n === 1 ? 'its' : 'their'} answer's label dict (left unlabelled for that answer)`,
  repeatedRow: (n) =>
    `${countOf(n, 'row repeats', 'rows repeat')} an earlier row (same question, reference and answers); each was imported as an item of its own`,
  sourceRenamed: () => "The file's reference labels are kept under another name",
  labelsCredited: (n) =>
    `${countOf(n, 'label column was', 'label columns were')} filed under people already in this workspace, as you confirmed`,
  bidiControls: (n) =>
    `${countOf(n, 'row holds', 'rows hold')} invisible direction controls, which make text display in another order than it reads (kept as they are; check the text in the file)`,
  plan: () =>
    "The file's plan is this dataset's own: other datasets here keep their plans and rates, unchanged",
}

export interface WarningGroup {
  kind: ImportWarningKind
  heading: string
  lines: string[]
}

/** One line of a warning: where it is, then what. */
export function warningLine(w: ImportWarning): string {
  const where = [w.file, w.at].filter((p) => p !== undefined).join(', ')
  return where ? `${where}: ${w.message}` : w.message
}

/** The warnings under one heading per kind, in the order the kinds are listed above. */
export function groupWarnings(warnings: readonly ImportWarning[]): WarningGroup[] {
  return ImportWarningKind.options.flatMap((kind) => {
    const of = warnings.filter((w) => w.kind === kind)
    return of.length ? [{ kind, heading: HEADINGS[kind](of.length), lines: of.map(warningLine) }] : []
  })
}
