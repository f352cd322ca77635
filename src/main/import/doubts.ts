import { createHash } from 'node:crypto'
import type { ImportWarning } from '../../shared/importWarnings'
import type { NormItem } from './normalized'

/**
 * What an import lets through but the person should look at, gathered row by row as items are
 * written: the report's warnings (and its older `unmatchedFactKeys` list, kept for scripts).
 */
export class ImportDoubts {
  readonly warnings: ImportWarning[] = []
  readonly unmatched: { line: number; variant: string; column: string; key: string }[] = []
  private repeats = new RepeatedRows()
  /** The file being read, named in each warning of a multi-file import. */
  private file: string | undefined

  /**
   * A multi-file import moves on to its next file: each file is its own variant, so its rows can
   * only repeat one another.
   */
  nextFile(file: string): void {
    this.file = file
    this.repeats = new RepeatedRows()
  }

  /** A written item, first read at `line`; `place` words a line as the file's reports do. */
  note(item: NormItem, line: number, place: (line: number) => string): void {
    for (const u of item.unmatched ?? []) {
      this.unmatched.push({ line, variant: u.variant, column: u.column, key: u.key })
      this.add({
        kind: 'unmatchedFactKey',
        at: place(line),
        message: `"${u.key}" in ${u.column} (${u.variant})`,
      })
    }
    for (const u of item.unlabelled ?? [])
      this.add({
        kind: 'unlabelledFact',
        at: place(line),
        message: `"${u.fact}" is not a key of ${u.column} (${u.variant})`,
      })
    const bidi = bidiFields(item)
    if (bidi.length) this.add({ kind: 'bidiControls', at: place(line), message: `in ${bidi.join(', ')}` })
    // Only rows without an id: a repeated id is refused, and rows with ids of their own are
    // told apart by them even when their texts agree.
    const earlier = item.extId === null ? this.repeats.see(item, line) : null
    if (earlier !== null)
      this.add({ kind: 'repeatedRow', at: place(line), message: `the same as ${place(earlier)}` })
  }

  /** A source whose name a person holds here, and the name its labels went under instead. */
  sourceRenamed(wanted: string, used: string): void {
    this.warnings.push({
      kind: 'sourceRenamed',
      message: `"${wanted}" is a person in this workspace: the file's labels by that name are kept as the source "${used}", apart from theirs`,
    })
  }

  /** A label column filed under a person already here, because the import was told to. */
  labelsCredited(column: string, person: string): void {
    this.warnings.push({
      kind: 'labelsCredited',
      message: `column "${column}" is now among the labels of “${person}”, who was already in this workspace`,
    })
  }

  private add(w: ImportWarning): void {
    this.warnings.push(this.file === undefined ? w : { ...w, file: this.file })
  }
}

/**
 * Explicit embeddings, overrides and isolates: "\u202Eevil\u202C" shows as "live". An annotator
 * reading such text judges something other than what the file says, so the import points at it.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/

/** The parts of an item whose text holds a direction control, named as a person would look for them. */
function bidiFields(item: NormItem): string[] {
  const found: string[] = []
  if (item.question !== null && BIDI_CONTROL.test(item.question)) found.push('the question')
  if (BIDI_CONTROL.test(item.reference)) found.push('the reference')
  for (const c of item.candidates) {
    if (BIDI_CONTROL.test(c.text)) found.push(`the answer "${c.variant}"`)
    if (c.units.some((u) => BIDI_CONTROL.test(u.text))) found.push(`a unit of "${c.variant}"`)
  }
  if (item.facts.some((f) => BIDI_CONTROL.test(f.text))) found.push('a fact')
  return found
}

/**
 * Notices a row whose question, reference and answers all equal an earlier row's: in a file
 * without ids that is most often a row pasted twice, which would otherwise become two items
 * without a word. Some datasets repeat a case on purpose, so the import warns and keeps both.
 *
 * Only a digest of each row is kept (16 bytes and its line), not its texts, so a file of a
 * million rows costs tens of megabytes here, not a copy of the file.
 */
class RepeatedRows {
  private readonly seen = new Map<string, number>()

  /** The line of the earlier row this item repeats, or null (and remembers it) when it is new. */
  see(item: NormItem, line: number): number | null {
    const key = digest(item)
    const earlier = this.seen.get(key)
    if (earlier !== undefined) return earlier
    this.seen.set(key, line)
    return null
  }
}

function digest(item: NormItem): string {
  // SHA-256 (available where FIPS mode turns MD5 off), its first 16 bytes kept: a chance
  // collision among even a billion rows stays below one in 10^20.
  const h = createHash('sha256')
  // Each text goes in with its length first, so no two different rows can run together into
  // the same bytes ("ab" + "c" against "a" + "bc"); a missing question differs from an empty one.
  const put = (text: string | null) => {
    if (text === null) h.update('-;')
    else h.update(`${text.length};`).update(text)
  }
  put(item.question)
  put(item.reference)
  h.update(`${item.candidates.length};`)
  for (const c of item.candidates) {
    put(c.variant)
    put(c.text)
  }
  return h.digest().toString('latin1', 0, 16)
}
