import { CODE_SPAN } from '../metrics/packing'
import type { Db } from '../store/connection'
import { blockParts, type LabelRowsColumns } from './blocks'
import { type LabelPass, labelRows, partRange } from './columns'

/**
 * One annotator's active seconds on a set of targets, the labels counted, and how many of those
 * carry a time (seconds > 0): labels saved from the CLI, a file or a bundle carry none.
 */
export interface ActiveTime {
  seconds: number
  labelled: number
  timed: number
}

/**
 * Each annotator's active seconds and label count on the given targets (`indexOf`: target id →
 * dense index, −1 when not one of them), the figures `activeTimeOn` gives, without sending a
 * million target ids into SQL. SQLite sums REAL values with Kahan–Babuška–Neumaier
 * compensation; the same steps, over each annotator's labels in the same target order, give
 * the same double to the last bit. Null when the ids do not pack (the caller asks SQL instead).
 */
export function activeTimeInRange(
  db: Db,
  minId: number,
  maxId: number,
  indexOf: Int32Array,
  /** The label pass of the same rows, read while nothing changed since: saves one read. */
  pass?: LabelPass | null,
): Map<number, ActiveTime> | null {
  const seconds = () =>
    db
      .prepare(`SELECT seconds ${labelRows(db)}`)
      .pluck()
      .all(minId, maxId) as number[]
  if (pass && pass.minId === minId && 'blocks' in pass) return blockSums(pass.blocks, indexOf)
  if (pass && pass.minId === minId && 'values' in pass) {
    const s = seconds()
    if (s.length === pass.values.length)
      return kbnSums(pass.values, CODE_SPAN, pass.aSpan, pass.aLo, minId, s, indexOf)
  }
  const span = db.prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM annotators').get() as {
    lo: number | null
    hi: number | null
  }
  const aLo = span.lo ?? 0
  const aSpan = (span.hi ?? 0) - aLo + 1
  if ((maxId - minId + 1) * aSpan >= 2 ** 53) return null
  // Both reads see the same rows in the same order: one read transaction, one ordering.
  const [who, secs] = db.transaction(
    () =>
      [
        db
          .prepare(`SELECT (target_id - ${minId}) * ${aSpan} + annotator_id - ${aLo} ${labelRows(db)}`)
          .pluck()
          .all(minId, maxId) as number[],
        seconds(),
      ] as const,
  )()
  return kbnSums(who, 1, aSpan, aLo, minId, secs, indexOf)
}

/**
 * `kbnSums` over the blocks' columns, which hold each label's seconds in the same order. Read from
 * the stored blocks themselves when the columns came from them, in the order the columns would
 * list them: no column of every label's target, annotator, verdict and seconds is copied out.
 */
function blockSums(b: LabelRowsColumns, indexOf: Int32Array): Map<number, ActiveTime> {
  const blocks = blockParts(b)
  const parts: readonly SumPart[] = blocks
    ? blocks.parts
    : [
        {
          base: 0,
          n: b.target.length,
          whole: true,
          offset: b.target,
          annotator: b.annotator,
          seconds: b.seconds,
        },
      ]
  const lo = blocks?.lo ?? 0
  const hi = blocks?.hi ?? 0
  // The annotators' range over the labels read: a block whose labels all lie in the range gives
  // it from its annotator column alone, the others label by label.
  let aLo = Number.POSITIVE_INFINITY
  let aHi = Number.NEGATIVE_INFINITY
  let n = 0
  for (const part of parts) {
    const { base, n: m, whole, offset, annotator } = part
    if (whole) {
      const [l, h] = partRange(part)
      if (l < aLo) aLo = l
      if (h > aHi) aHi = h
      n += m
      continue
    }
    for (let p = 0; p < m; p++) {
      const id = base + offset[p]!
      if (id < lo || id > hi) continue
      const a = annotator[p]!
      if (a < aLo) aLo = a
      if (a > aHi) aHi = a
      n++
    }
  }
  if (n === 0) return new Map()
  const sums = new KbnSums(aHi - aLo + 1)
  const limit = indexOf.length
  for (const { base, n: m, whole, offset, annotator, seconds } of parts)
    for (let p = 0; p < m; p++) {
      const id = base + offset[p]!
      if ((!whole && (id < lo || id > hi)) || id >= limit || indexOf[id]! < 0) continue
      sums.add(annotator[p]! - aLo, seconds[p]!)
    }
  return sums.byAnnotator(aLo)
}

/** What blockSums reads of a block (or of copied-out columns, as one block from id 0). */
interface SumPart {
  base: number
  n: number
  whole: boolean
  offset: ArrayLike<number>
  annotator: Int32Array
  seconds: Float64Array
}

/** Per annotator: SQLite's compensated sum of the seconds, and the count, of the kept targets' labels. */
function kbnSums(
  packed: readonly number[],
  unit: number,
  aSpan: number,
  aLo: number,
  minId: number,
  seconds: readonly number[],
  indexOf: Int32Array,
): Map<number, ActiveTime> {
  const sums = new KbnSums(aSpan)
  for (let p = 0; p < packed.length; p++) {
    const v = packed[p]!
    const w = (v - (v % unit)) / unit
    const a = w % aSpan
    const id = (w - a) / aSpan + minId
    if (id >= indexOf.length || indexOf[id]! < 0) continue
    sums.add(a, seconds[p]!)
  }
  return sums.byAnnotator(aLo)
}

/** SQLite's sum() per annotator slot: its compensated (Kahan-Babuska-Neumaier) steps, and a count. */
class KbnSums {
  private readonly sum: Float64Array
  private readonly err: Float64Array
  private readonly count: Float64Array
  private readonly timed: Float64Array

  constructor(slots: number) {
    this.sum = new Float64Array(slots)
    this.err = new Float64Array(slots)
    this.count = new Float64Array(slots)
    this.timed = new Float64Array(slots)
  }

  /** kahanBabuskaNeumaierStep */
  add(a: number, r: number): void {
    const s = this.sum[a]!
    const t = s + r
    if (Math.abs(s) > Math.abs(r)) this.err[a]! += s - t + r
    else this.err[a]! += r - t + s
    this.sum[a] = t
    this.count[a]!++
    if (r > 0) this.timed[a]!++
  }

  /** Slot a as annotator a + aLo; sumFinalize adds the error term unless it overflowed. */
  byAnnotator(aLo: number): Map<number, ActiveTime> {
    const out = new Map<number, ActiveTime>()
    for (let a = 0; a < this.sum.length; a++) {
      if (this.count[a] === 0) continue
      const e = this.err[a]!
      const sum = this.sum[a]!
      out.set(a + aLo, {
        seconds: Number.isFinite(e) ? sum + e : sum,
        labelled: this.count[a]!,
        timed: this.timed[a]!,
      })
    }
    return out
  }
}
