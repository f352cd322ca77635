import { type LabelRowsColumns, readLabelBlocks } from '../labels/blocks'
import {
  type LabelRangeRow,
  labelsInTargetRange,
  sharedLabelTimes,
  sharedLabelTimeTexts,
  sharedTargetIds,
} from '../labels/reads'
import type { Db } from '../store/connection'

/**
 * Every label on a range of target ids, read in one ordered pass into typed arrays: target,
 * annotator, verdict (as a code), seconds and guidelines version, with the rare evidence and
 * notes kept aside by label. An export looks up a target's labels by binary search instead of
 * building and parsing a JSON array per target in SQL, and holds a few bytes per label rather
 * than an object.
 */
export class LabelTable {
  /** Label k is on target `target[k]`; labels are ordered by target, then annotator id. */
  target: Int32Array
  annotator: Int32Array
  /** Index into `verdicts`, or -1 for a cleared label. */
  verdict: Int32Array
  seconds: Float64Array
  /** Guidelines version, NaN when none was recorded. */
  guidelines: Float64Array
  /** Evidence JSON of the labels with any (the rest hold an empty list). */
  readonly evidence = new Map<number, string>()
  readonly notes = new Map<number, string>()
  /**
   * When label k was first placed, as an index into `times` (-1: not kept), kept only where the
   * order of a target's labels matters. A typed array and a list rather than a map keyed by label:
   * at a million targets the map's 1.8 million entries cost more than reading the times.
   */
  placedAt = new Int32Array(0)
  readonly times: string[] = []
  readonly verdicts: string[] = []
  size = 0

  constructor(capacity = 1024) {
    this.target = new Int32Array(capacity)
    this.annotator = new Int32Array(capacity)
    this.verdict = new Int32Array(capacity)
    this.seconds = new Float64Array(capacity)
    this.guidelines = new Float64Array(capacity)
  }

  /** When label k was first placed, if that was noted (notePlacedTimes). */
  placed(k: number): string | undefined {
    const i = k < this.placedAt.length ? this.placedAt[k]! : -1
    return i < 0 ? undefined : this.times[i]
  }

  /** The first label of `targetId` (or where it would be); its labels run while target[k] matches. */
  first(targetId: number): number {
    let lo = 0
    let hi = this.size
    const t = this.target
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (t[mid]! < targetId) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private grow(): void {
    const cap = this.target.length * 2
    const more = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap)
      b.set(a)
      return b
    }
    this.target = more(this.target, (n) => new Int32Array(n))
    this.annotator = more(this.annotator, (n) => new Int32Array(n))
    this.verdict = more(this.verdict, (n) => new Int32Array(n))
    this.seconds = more(this.seconds, (n) => new Float64Array(n))
    this.guidelines = more(this.guidelines, (n) => new Float64Array(n))
  }

  /**
   * Appends labels from..to − 1 of `rows` (labels with a verdict, no version, evidence or note),
   * their verdicts given as codes through `codes`, column by column.
   */
  pushBlock(rows: LabelRowsColumns, codes: readonly number[], from: number, to: number): void {
    const n = to - from
    if (n <= 0) return
    while (this.target.length < this.size + n) this.grow()
    const at = this.size
    this.target.set(rows.target.subarray(from, to), at)
    this.annotator.set(rows.annotator.subarray(from, to), at)
    this.seconds.set(rows.seconds.subarray(from, to), at)
    this.guidelines.fill(Number.NaN, at, at + n)
    const verdict = rows.verdict
    for (let k = 0; k < n; k++) this.verdict[at + k] = codes[verdict[from + k]!]!
    this.size += n
  }

  push(
    target: number,
    annotator: number,
    verdict: number,
    seconds: number,
    guidelines: number | null,
    evidence: string | null,
    note: string | null,
  ): void {
    if (this.size === this.target.length) this.grow()
    const k = this.size++
    this.target[k] = target
    this.annotator[k] = annotator
    this.verdict[k] = verdict
    this.seconds[k] = seconds
    this.guidelines[k] = guidelines ?? Number.NaN
    if (evidence !== null) this.evidence.set(k, evidence)
    if (note !== null) this.notes.set(k, note)
  }
}

/**
 * The labels on targets `lo`..`hi` (ids), whatever dataset they belong to: the caller looks up
 * its own. `known`: the verdicts the schema allows, coded in SQL. The labels with a verdict come
 * from the label blocks (migration 0160: a few hundred rows instead of a row per label); only
 * those carrying a guidelines version, evidence or a note are read as rows, and merged in
 * (target, annotator) order. A cleared label with none of those changes no cell of the export,
 * so it is left out. Without the blocks every label is read as a row.
 */
export function loadLabelTable(db: Db, lo: number, hi: number, known: readonly string[] = []): LabelTable {
  const blocks = readLabelBlocks(db, lo, hi)
  const table = new LabelTable(Math.max(1024, blocks?.target.length ?? 0))
  const codes = new Map<string, number>()
  for (const v of known) codes.set(v, table.verdicts.push(v) - 1)
  const codeOf = (v: string | number | null): number => {
    if (typeof v === 'number') return v
    if (v === null) return -1
    let code = codes.get(v)
    if (code === undefined) {
      code = table.verdicts.push(v) - 1
      codes.set(v, code)
    }
    return code
  }
  const push = ([t, a, v, s, g, e, n]: LabelRangeRow) => table.push(t, a, codeOf(v), s, g, e, n)
  if (!blocks) {
    for (const row of labelsInTargetRange(db, lo, hi, known)) push(row)
    return table
  }
  const { target, annotator } = blocks
  const blockCode = blocks.verdicts.map(codeOf)
  const size = target.length
  let p = 0
  const copyBefore = (t: number, a: number) => {
    let q = p
    while (q < size && (target[q]! < t || (target[q] === t && annotator[q]! < a))) q++
    table.pushBlock(blocks, blockCode, p, q)
    p = q
  }
  for (const row of labelsInTargetRange(db, lo, hi, known, true)) {
    const [t, a] = row
    copyBefore(t, a)
    // The row holds all the block holds of this label, and more.
    if (p < size && target[p] === t && annotator[p] === a) p++
    push(row)
  }
  copyBefore(Number.POSITIVE_INFINITY, 0)
  return table
}

/** Target ids per read of the label times: at most a few hundred thousand strings per `.all()`. */
const TIMES_CHUNK = 1 << 16

/**
 * Notes when each label of the dataset's targets labelled by two or more people was placed. The
 * times are read alone, in (target, annotator) order, and matched to the table's labels with a
 * verdict on those targets in the same order: a column of strings costs about a third of rows
 * that also name their target and annotator. A range whose count of times differs from the
 * table's labels (the label blocks and the rows disagreeing) is read with its keys instead.
 */
export function notePlacedTimes(
  db: Db,
  table: LabelTable,
  datasetId: number,
  lo: number,
  hi: number,
  chunk = TIMES_CHUNK,
): void {
  table.placedAt = new Int32Array(table.size).fill(-1)
  const { target, verdict, placedAt, times } = table
  let k = table.first(lo)
  for (let from = lo; from <= hi; from += chunk) {
    const to = Math.min(hi, from + chunk - 1)
    const at = sharedLabelTimeTexts(db, datasetId, from, to)
    while (k < table.size && target[k]! < from) k++
    const start = k
    if (at.length === 0) continue
    const shared = sharedTargetIds(db, datasetId, from, to)
    // The labels the times belong to, in the order they come: those with a verdict on each shared target.
    let n = 0
    for (const t of shared) {
      while (k < table.size && target[k]! < t) k++
      for (; k < table.size && target[k] === t; k++) if (verdict[k]! >= 0) n++
    }
    if (n !== at.length) {
      for (const [t, a, time] of sharedLabelTimes(db, datasetId, from, to)) {
        let j = table.first(t)
        while (j < table.size && target[j] === t && table.annotator[j]! < a) j++
        if (j < table.size && target[j] === t && table.annotator[j] === a) placedAt[j] = times.push(time) - 1
      }
      continue
    }
    let i = 0
    k = start
    for (const t of shared) {
      while (k < table.size && target[k]! < t) k++
      for (; k < table.size && target[k] === t; k++)
        if (verdict[k]! >= 0) placedAt[k] = times.push(at[i++]!) - 1
    }
  }
}
