import { CODE_SPAN, sqlString } from '../metrics/packing'
import { sharedInt32 } from '../metrics/sharedColumns'
import { buildLabelColumns, type LabelColumns } from '../metrics/stats/labelColumns'
import type { Db } from '../store/connection'
import {
  type BlockPart,
  blockParts,
  type HandedBlocks,
  type LabelRowsColumns,
  readLabelBlocks,
} from './blocks'

/**
 * Current labels of the dataset's target-id range (other datasets' targets fall outside the
 * index later). Categorical verdicts travel packed into one integer per label.
 */
export function loadLabelRows(
  db: Db,
  datasetId: number,
  labels: string[],
  minId: number,
  maxId: number,
): [number, number, string][] {
  const packed = packedLabels(db, labels, minId, maxId)
  if (!packed) return labelRowsByRow(db, datasetId)
  const { values, aSpan, aLo } = packed
  const k = labels.length
  const out: [number, number, string][] = new Array(values.length)
  let m = 0
  for (const v of values) {
    const code = v % CODE_SPAN
    // A stored label outside the schema (a schema edited after labelling) is not a verdict.
    if (code >= k) continue
    const rest = (v - code) / CODE_SPAN
    const a = rest % aSpan
    out[m++] = [(rest - a) / aSpan + minId, a + aLo, labels[code]!]
  }
  out.length = m
  return out
}

/**
 * The same labels straight into the columns `buildLabelColumns` makes of `loadLabelRows`, without
 * a JavaScript array per label (a million labelled targets are two million of them).
 */
export function loadLabelColumns(
  db: Db,
  datasetId: number,
  labels: string[],
  minId: number,
  maxId: number,
  indexOf: Int32Array,
  targets: number,
  /** Given the pass, which activeTimeInRange can line the labels' seconds up with. */
  keep?: (pass: LabelPass) => void,
  /** The stored blocks, read already on another connection while nothing changed. */
  read?: HandedBlocks | null,
): LabelColumns {
  // Categorical labels come from the stored blocks (migration 0160) where the workspace has them.
  const k = labels.length
  const blocks = k > 0 && k < CODE_SPAN ? readLabelBlocks(db, minId, maxId, read) : null
  if (blocks) {
    keep?.({ blocks, minId })
    return columnsOfBlocks(blocks, labels, indexOf, targets)
  }
  const packed = packedLabels(db, labels, minId, maxId)
  if (!packed) return buildLabelColumns(targets, labelRowsByRow(db, datasetId), indexOf, labels)
  keep?.(packed)
  const { values, aSpan, aLo } = packed
  // Per kept label: its target's dense index (−1: not kept), in row order.
  const at = new Int32Array(values.length)
  for (let p = 0; p < values.length; p++) {
    const v = values[p]!
    const code = v % CODE_SPAN
    const rest = (v - code) / CODE_SPAN
    const id = (rest - (rest % aSpan)) / aSpan + minId
    const i = code >= k || id >= indexOf.length ? -1 : indexOf[id]!
    at[p] = i
  }
  const start = targetOffsets(at, targets)
  const fill = start.slice(0, targets)
  const annotator = new Int32Array(start[targets]!)
  const code = new Int32Array(start[targets]!)
  const seen = new Uint8Array(aSpan)
  for (let p = 0; p < values.length; p++) {
    const i = at[p]!
    if (i < 0) continue
    const v = values[p]!
    const c = v % CODE_SPAN
    const a = ((v - c) / CODE_SPAN) % aSpan
    const to = fill[i]!++
    annotator[to] = a + aLo
    code[to] = c
    seen[a] = 1
  }
  const annotatorIds: number[] = []
  for (let a = 0; a < aSpan; a++) if (seen[a]) annotatorIds.push(a + aLo)
  return { start, annotator, code, values: [...labels], annotatorIds }
}

/**
 * The lowest and highest annotator id in a stored block's column, found once per read block: the
 * label pass and the active time both size their tallies by it.
 */
export function partRange(part: Pick<BlockPart, 'annotator'>): [number, number] {
  let range = partRanges.get(part)
  if (!range) {
    range = rangeOf(part.annotator)
    partRanges.set(part, range)
  }
  return range
}

const partRanges = new WeakMap<object, [number, number]>()

/** The lowest and highest annotator id among the blocks' labels (±Infinity when there are none). */
export function rangeOf(annotators: ArrayLike<number>): [number, number] {
  let lo = Number.POSITIVE_INFINITY
  let hi = Number.NEGATIVE_INFINITY
  for (let p = 0; p < annotators.length; p++) {
    const a = annotators[p]!
    if (a < lo) lo = a
    if (a > hi) hi = a
  }
  return [lo, hi]
}

/**
 * Where each target's labels go in the grouped columns (a counting sort): target i's run from
 * start[i] to start[i + 1]. `at` holds each label's target index, −1 for a label left out.
 */
function targetOffsets(at: Int32Array, targets: number): Int32Array {
  const start = new Int32Array(targets + 1)
  for (let p = 0; p < at.length; p++) {
    const i = at[p]!
    if (i >= 0) start[i + 1]!++
  }
  for (let i = 0; i < targets; i++) start[i + 1]! += start[i]!
  return start
}

/**
 * The columns of a pass that copied `m` labels in target order: each target's count in `start`
 * becomes its offset, the copies are cut to the labels kept, and the annotators seen are listed.
 */
function grouped(
  pass: {
    start: Int32Array
    annotator: Int32Array
    code: Int32Array
    m: number
    seen: Uint8Array
    aLo: number
  },
  labels: string[],
  targets: number,
): LabelColumns {
  const { start, m, seen, aLo } = pass
  for (let i = 0; i < targets; i++) start[i + 1]! += start[i]!
  const whole = m === pass.annotator.length
  const annotator = whole ? pass.annotator : pass.annotator.slice(0, m)
  const code = whole ? pass.code : pass.code.slice(0, m)
  const annotatorIds: number[] = []
  for (let a = 0; a < seen.length; a++) if (seen[a]) annotatorIds.push(a + aLo)
  return { start, annotator, code, values: [...labels], annotatorIds }
}

/**
 * `loadLabelColumns` from the blocks' columns. The blocks hold their labels in target order, so
 * the kept ones are already grouped by target and one pass copies them out; should a label ever
 * come out of order, the counting sort puts them in place as for the other paths.
 */
export function columnsOfBlocks(
  blocks: LabelRowsColumns,
  labels: string[],
  indexOf: Int32Array,
  targets: number,
): LabelColumns {
  // A stored label outside the schema (a schema edited after labelling) is not a verdict.
  const codeOf = Int32Array.from(blocks.verdicts, (v) => labels.indexOf(v))
  const packed = blockParts(blocks)
  const fromParts = packed && columnsOfParts(packed, codeOf, labels, indexOf, targets)
  if (fromParts) return fromParts
  const n = blocks.target.length
  const [aLo, aHi] = rangeOf(blocks.annotator)
  const seen = new Uint8Array(n === 0 ? 0 : aHi - aLo + 1)
  const start = new Int32Array(targets + 1)
  const annotator = new Int32Array(n)
  const code = new Int32Array(n)
  let m = 0
  let last = -1
  for (let p = 0; p < n; p++) {
    const id = blocks.target[p]!
    const c = codeOf[blocks.verdict[p]!]!
    const i = c < 0 || id >= indexOf.length ? -1 : indexOf[id]!
    if (i < 0) continue
    if (i < last) return sortedColumnsOfBlocks(blocks, codeOf, indexOf, targets, seen, aLo, labels)
    last = i
    const a = blocks.annotator[p]!
    annotator[m] = a
    code[m++] = c
    start[i + 1]!++
    seen[a - aLo] = 1
  }
  return grouped({ start, annotator, code, m, seen, aLo }, labels, targets)
}

/**
 * `columnsOfBlocks`'s in-order pass over the stored blocks themselves, the same labels in the
 * same order (those of the range read), so the labels are never copied into columns first. Null
 * when a label comes out of target order: the caller's pass sorts them.
 */
function columnsOfParts(
  { parts, lo, hi }: { parts: readonly BlockPart[]; lo: number; hi: number },
  codeOf: Int32Array,
  labels: string[],
  indexOf: Int32Array,
  targets: number,
): LabelColumns | null {
  let n = 0
  let aLo = Number.POSITIVE_INFINITY
  let aHi = Number.NEGATIVE_INFINITY
  for (const part of parts) {
    n += part.n
    const [l, h] = partRange(part)
    if (l < aLo) aLo = l
    if (h > aHi) aHi = h
  }
  const seen = new Uint8Array(n === 0 ? 0 : aHi - aLo + 1)
  // Shared: the Compare view's worker thread is handed these columns (sharedColumns.ts).
  const start = sharedInt32(targets + 1)
  const annotator = sharedInt32(n)
  const code = sharedInt32(n)
  let m = 0
  let last = -1
  for (const part of parts) {
    const { base, whole, offset, verdict } = part
    const a = part.annotator
    // The block's verdicts as label codes (−1: not one of the schema's).
    const labelCode = Int32Array.from(part.codes, (g) => codeOf[g]!)
    for (let p = 0; p < part.n; p++) {
      const id = base + offset[p]!
      if (!whole && (id < lo || id > hi)) continue
      const c = labelCode[verdict[p]!]!
      const i = c < 0 || id >= indexOf.length ? -1 : indexOf[id]!
      if (i < 0) continue
      if (i < last) return null
      last = i
      const an = a[p]!
      annotator[m] = an
      code[m++] = c
      start[i + 1]!++
      seen[an - aLo] = 1
    }
  }
  return grouped({ start, annotator, code, m, seen, aLo }, labels, targets)
}

/** `columnsOfBlocks` for labels not in target order: where each goes by a counting sort. */
function sortedColumnsOfBlocks(
  blocks: LabelRowsColumns,
  codeOf: Int32Array,
  indexOf: Int32Array,
  targets: number,
  seen: Uint8Array,
  aLo: number,
  labels: string[],
): LabelColumns {
  const n = blocks.target.length
  const at = new Int32Array(n)
  for (let p = 0; p < n; p++) {
    const id = blocks.target[p]!
    const i = codeOf[blocks.verdict[p]!]! < 0 || id >= indexOf.length ? -1 : indexOf[id]!
    at[p] = i
  }
  const start = targetOffsets(at, targets)
  const fill = start.slice(0, targets)
  const annotator = new Int32Array(start[targets]!)
  const code = new Int32Array(start[targets]!)
  for (let p = 0; p < n; p++) {
    const i = at[p]!
    if (i < 0) continue
    const to = fill[i]!++
    const a = blocks.annotator[p]!
    annotator[to] = a
    code[to] = codeOf[blocks.verdict[p]!]!
    seen[a - aLo] = 1
  }
  const annotatorIds: number[] = []
  for (let a = 0; a < seen.length; a++) if (seen[a]) annotatorIds.push(a + aLo)
  return { start, annotator, code, values: [...labels], annotatorIds }
}

function labelRowsByRow(db: Db, datasetId: number): [number, number, string][] {
  return db
    .prepare(
      `SELECT l.target_id, l.annotator_id, l.verdict FROM labels l JOIN targets t ON t.id = l.target_id
       WHERE t.dataset_id = ? AND l.verdict IS NOT NULL`,
    )
    .raw()
    .all(datasetId) as [number, number, string][]
}

/**
 * The labels of a target-id range with a verdict, in (target, annotator) order: a range of the
 * index that holds every column these reads need (migration 0140), so no sort and no visit to
 * the table's rows. Every read that lines its rows up with another's uses exactly this.
 */
export const labelRows = (db: Db) =>
  `FROM ${labelsForMetrics(db)} WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL ORDER BY target_id, annotator_id`

/**
 * `labels` read through migration 0140's index, named so the planner cannot pick the narrower
 * (target_id, annotator_id) one and visit every row; plain `labels` in a workspace opened at an
 * older schema (an upgrade's own tests read figures before migrating).
 */
export function labelsForMetrics(db: Db): string {
  const has = db.prepare("SELECT 1 FROM pragma_index_list('labels') WHERE name = 'labels_metrics'").get()
  return has ? 'labels INDEXED BY labels_metrics' : 'labels'
}

/**
 * One label pass: packed from SQL, per label ((target − minId) · aSpan + annotator − aLo) ·
 * CODE_SPAN + code; or the stored blocks' columns, which carry the seconds and times as well.
 */
export type LabelPass = PackedPass | { blocks: LabelRowsColumns; minId: number }

interface PackedPass {
  values: number[]
  aSpan: number
  aLo: number
  minId: number
}

/** Categorical verdicts packed into one integer per label, or null when they do not fit. */
function packedLabels(db: Db, labels: string[], minId: number, maxId: number): PackedPass | null {
  const k = labels.length
  const span = db.prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM annotators').get() as {
    lo: number | null
    hi: number | null
  }
  const aLo = span.lo ?? 0
  const aSpan = (span.hi ?? 0) - aLo + 1
  const packable = k > 0 && k < CODE_SPAN && (maxId - minId + 1) * aSpan * CODE_SPAN < 2 ** 53
  if (!packable) return null
  const cases = labels.map((l, i) => `WHEN ${sqlString(l)} THEN ${i}`).join(' ')
  const values = db
    .prepare(
      `SELECT ((target_id - ${minId}) * ${aSpan} + annotator_id - ${aLo}) * ${CODE_SPAN} + CASE verdict ${cases} ELSE ${k} END
       ${labelRows(db)}`,
    )
    .pluck()
    .all(minId, maxId) as number[]
  return { values, aSpan, aLo, minId }
}
