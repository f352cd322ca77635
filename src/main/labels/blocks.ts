import type { Db } from '../store/connection'
import { countCacheWrites } from '../store/version'
import {
  decodeExtras,
  encodeExtras,
  newStamp,
  type PartExtras,
  ReadExtras,
  type StoredExtra,
} from './blockExtras'
import { type BlockPart, StoredPart } from './blockPart'

export type { BlockPart, StoredExtra }

/**
 * The labels that carry a verdict, kept a second time in blocks of 4,096 target ids (table
 * `label_blocks`, migration 0160): one row per block holding every such label's target,
 * annotator and verdict as packed columns (their seconds and times in `label_block_extras`,
 * blockExtras.ts, read only when asked for), so the views read a million-target dataset's 1.8
 * million labels as some 250 rows. It is a cache of `labels` and nothing else:
 * triggers delete a block whenever one of its labels is written, and the next read builds it
 * again from the rows. A save while annotating so costs one small delete, and the next view
 * rebuilds one block, not a column of the whole dataset.
 */
export const BLOCK_SIZE = 4096

/** Labels with a verdict of a target-id range, in (target, annotator) order, as columns. */
export interface LabelRowsColumns {
  target: Int32Array
  annotator: Int32Array
  /** index into `verdicts` */
  verdict: Int32Array
  verdicts: string[]
  seconds: Float64Array
  /** `updated_at` as milliseconds since the epoch; null when one is not an ISO time as `now()` writes it. */
  time: Float64Array | null
}

interface BlockDict {
  n: number
  verdicts: string[]
  /** Whether the block carries a time column (every time in the canonical ISO form). */
  times: boolean
  /** Drawn when the block was built; its extras carry the same (blockExtras.ts). */
  stamp: number
}

const parseDict = (text: string): BlockDict => {
  const value: unknown = JSON.parse(text)
  const d = value as Partial<BlockDict> | null
  if (
    d === null ||
    typeof d !== 'object' ||
    !Number.isInteger(d.n) ||
    typeof d.times !== 'boolean' ||
    !Number.isInteger(d.stamp) ||
    !Array.isArray(d.verdicts) ||
    !d.verdicts.every((v) => typeof v === 'string')
  )
    throw new Error('label_blocks.dict is not a block dictionary')
  return d as BlockDict
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/**
 * The milliseconds of an ISO time written by `Date.prototype.toISOString` with a four-digit
 * year, or NaN. For those strings, text order (SQLite's, byte by byte) is time order.
 */
export function isoMillis(s: string): number {
  if (!ISO.test(s)) return Number.NaN
  const ms = Date.parse(s)
  return Number.isFinite(ms) && new Date(ms).toISOString() === s ? ms : Number.NaN
}

type Row = [target: number, annotator: number, verdict: string, seconds: number, at: string]

/** A stored block as read: its number, dict and data (a Buffer, or its bytes handed over by a worker). */
export type StoredBlock = [block: number, dict: string, data: Uint8Array]

/** Blocks read on another connection while nothing changed, and their extras once (if) they arrive. */
export interface HandedBlocks {
  rows: readonly StoredBlock[]
  extras: (() => readonly StoredExtra[] | null) | null
}

/**
 * A block's dict, data and extras from its label rows. Layout of the data: annotator i32,
 * verdict u32, offset u16; of the extras: seconds f64, time f64 (blockExtras.ts).
 */
export function encodeBlock(rows: readonly Row[]): {
  dict: string
  data: Buffer
  extra: Buffer
  stamp: number
} {
  const n = rows.length
  const verdicts: string[] = []
  const index = new Map<string, number>()
  let times = true
  const time = new Float64Array(n)
  for (let p = 0; p < n && times; p++) {
    const ms = isoMillis(rows[p]![4])
    if (Number.isNaN(ms)) times = false
    else time[p] = ms
  }
  const extra = encodeExtras(
    Float64Array.from(rows, (r) => r[3]),
    times ? time : null,
  )
  const buf = new ArrayBuffer(n * 10)
  const annotator = new Int32Array(buf, 0, n)
  const verdict = new Uint32Array(buf, 4 * n, n)
  const offset = new Uint16Array(buf, 8 * n, n)
  for (let p = 0; p < n; p++) {
    const [target, a, v] = rows[p]!
    let c = index.get(v)
    if (c === undefined) {
      c = verdicts.push(v) - 1
      index.set(v, c)
    }
    annotator[p] = a
    verdict[p] = c
    offset[p] = target % BLOCK_SIZE
  }
  const stamp = newStamp()
  const dict: BlockDict = { n, verdicts, times, stamp }
  return { dict: JSON.stringify(dict), data: Buffer.from(buf), extra, stamp }
}

const hasTable = (db: Db) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'label_blocks'").get() !== undefined

/**
 * The labels with a verdict of targets lo … hi, from the stored blocks, building (and storing)
 * the missing ones. Null in a workspace from before migration 0160. Stored blocks are read in
 * one statement; when some are missing, reading, building and storing happen in one write
 * transaction, so no label saved meanwhile by another process can be missed by a stored block.
 * A workspace that cannot be written to (read-only, or busy past the timeout) still gets the
 * blocks, built but not stored.
 */
export function readLabelBlocks(
  db: Db,
  lo: number,
  hi: number,
  /** Blocks read already, on another connection, while nothing changed (blocksInBackground.ts). */
  read?: HandedBlocks | null,
): LabelRowsColumns | null {
  // Target ids travel as 32-bit integers, as the metrics' other columns carry them.
  if (hi < lo || lo < 0 || hi >= 2 ** 31 || !hasTable(db)) return null
  const first = Math.floor(lo / BLOCK_SIZE)
  const last = Math.floor(hi / BLOCK_SIZE)
  const given = read?.rows.filter(([b]) => b >= first && b <= last)
  const extras = new ReadExtras(db, read?.extras ?? null)
  // Extras of blocks built here, known before any is stored.
  const built = new Map<number, PartExtras>()
  const readStored = (): StoredBlock[] =>
    db
      .prepare('SELECT block, dict, data FROM label_blocks WHERE block BETWEEN ? AND ? ORDER BY block')
      .raw()
      .all(first, last) as [number, string, Buffer][]
  let stored = given ?? readStored()
  if (stored.length === last - first + 1) return decode(stored, lo, hi, extras, built)
  const rowsOf = db.prepare(
    `SELECT target_id, annotator_id, verdict, seconds, updated_at FROM ${labelsIndexed(db)}
     WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL ORDER BY target_id, annotator_id`,
  )
  const build = (block: number) => {
    const rows = rowsOf.raw().all(block * BLOCK_SIZE, (block + 1) * BLOCK_SIZE - 1) as Row[]
    const encoded = encodeBlock(rows)
    const d = parseDict(encoded.dict)
    const known = decodeExtras(encoded.extra, d.n, d.times)
    if (known) built.set(block, known)
    return encoded
  }
  // Blocks read before the transaction are read again inside it, unless they came from another
  // connection while nothing changed: then only the missing ones are looked for (a view's saves
  // since the last load drop a few blocks, not all of them).
  const storedOne = db.prepare('SELECT block, dict, data FROM label_blocks WHERE block = ?').raw()
  const complete = (store: boolean): StoredBlock[] => {
    if (!given) stored = readStored()
    const have = new Set(stored.map(([b]) => b))
    const put = db.prepare('INSERT INTO label_blocks (block, dict, data) VALUES (?, ?, ?)')
    // Not a table any trigger watches: a stale row (its block rebuilt) is replaced in place.
    const putExtra = db.prepare(
      'INSERT OR REPLACE INTO label_block_extras (block, stamp, data) VALUES (?, ?, ?)',
    )
    const all = [...stored]
    for (let b = first; b <= last; b++) {
      if (have.has(b)) continue
      const found = given ? (storedOne.get(b) as StoredBlock | undefined) : undefined
      if (found) {
        all.push(found)
        continue
      }
      const { dict, data, extra, stamp } = build(b)
      if (store) {
        countCacheWrites(db, put.run(b, dict, data).changes)
        countCacheWrites(db, putExtra.run(b, stamp, extra).changes)
      }
      all.push([b, dict, data])
    }
    return all.sort((x, y) => x[0] - y[0])
  }
  let blocks: StoredBlock[]
  try {
    blocks = db.readonly ? db.transaction(() => complete(false))() : db.transaction(complete).immediate(true)
  } catch (e) {
    if (!isBusyOrReadonly(e)) throw e
    blocks = db.transaction(() => complete(false))()
  }
  return decode(blocks, lo, hi, extras, built)
}

/** `labels` through migration 0140's index (every column read here), as `labelsForMetrics` names it. */
function labelsIndexed(db: Db): string {
  const has = db.prepare("SELECT 1 FROM pragma_index_list('labels') WHERE name = 'labels_metrics'").get()
  return has ? 'labels INDEXED BY labels_metrics' : 'labels'
}

/**
 * The blocks' labels of targets lo … hi as one set of columns, verdicts in first-seen order.
 * Each column is copied out of the blocks when first asked for: the Agreement view groups the
 * labels by target straight from the blocks (`blockParts`) and reads no column, and never the
 * seconds and times (kept apart, three fifths of the bytes).
 */
function decode(
  blocks: readonly StoredBlock[],
  lo: number,
  hi: number,
  extras: ReadExtras,
  built: ReadonlyMap<number, PartExtras>,
): LabelRowsColumns {
  const parts: BlockPart[] = []
  const verdicts: string[] = []
  const global = new Map<string, number>()
  let total = 0
  let times = true
  for (const [block, dictText, raw] of blocks) {
    const d = parseDict(dictText)
    const n = d.n
    if (n === 0) continue
    if (!d.times) times = false
    // Typed views need aligned offsets; a blob's buffer may start anywhere.
    const bytes = raw.byteOffset % 4 === 0 ? raw : Buffer.from(raw)
    const buf = bytes.buffer
    const at = bytes.byteOffset
    const base = block * BLOCK_SIZE
    const whole = base >= lo && base + BLOCK_SIZE - 1 <= hi
    const offset = new Uint16Array(buf, at + 8 * n, n)
    if (whole) total += n
    else for (let p = 0; p < n; p++) if (base + offset[p]! >= lo && base + offset[p]! <= hi) total++
    const codes = Int32Array.from(d.verdicts, (word) => {
      let c = global.get(word)
      if (c === undefined) {
        c = verdicts.push(word) - 1
        global.set(word, c)
      }
      return c
    })
    const annotator = new Int32Array(buf, at, n)
    const verdict = new Uint32Array(buf, at + 4 * n, n)
    const key = { block, stamp: d.stamp, n, times: d.times }
    parts.push(
      new StoredPart(base, n, whole, offset, annotator, verdict, codes, key, built.get(block), extras),
    )
  }
  return new LazyColumns(verdicts, parts, total, times, lo, hi)
}

/** `LabelRowsColumns` whose columns are copied out of the blocks on first use. */
class LazyColumns implements LabelRowsColumns {
  private rows: { target: Int32Array; annotator: Int32Array; verdict: Int32Array } | null = null
  private secondsColumn: Float64Array | null = null
  private timeColumn: Float64Array | null | undefined

  constructor(
    readonly verdicts: string[],
    readonly parts: readonly BlockPart[],
    private readonly total: number,
    times: boolean,
    private readonly lo: number,
    private readonly hi: number,
  ) {
    this.timeColumn = times ? undefined : null
  }

  get range(): [number, number] {
    return [this.lo, this.hi]
  }

  get target(): Int32Array {
    return this.labels().target
  }

  get annotator(): Int32Array {
    return this.labels().annotator
  }

  get verdict(): Int32Array {
    return this.labels().verdict
  }

  get seconds(): Float64Array {
    this.secondsColumn ??= this.gather((p) => p.seconds)
    return this.secondsColumn
  }

  get time(): Float64Array | null {
    if (this.timeColumn === undefined) this.timeColumn = this.gather((p) => p.time!)
    return this.timeColumn
  }

  private labels(): { target: Int32Array; annotator: Int32Array; verdict: Int32Array } {
    if (this.rows) return this.rows
    const target = new Int32Array(this.total)
    const annotator = new Int32Array(this.total)
    const verdict = new Int32Array(this.total)
    const { lo, hi } = this
    let m = 0
    for (const part of this.parts) {
      const { base, n, offset, codes } = part
      const a = part.annotator
      const v = part.verdict
      if (part.whole) {
        annotator.set(a, m)
        for (let p = 0; p < n; p++) {
          target[m + p] = base + offset[p]!
          verdict[m + p] = codes[v[p]!]!
        }
        m += n
        continue
      }
      for (let p = 0; p < n; p++) {
        const id = base + offset[p]!
        if (id < lo || id > hi) continue
        target[m] = id
        annotator[m] = a[p]!
        verdict[m++] = codes[v[p]!]!
      }
    }
    this.rows = { target, annotator, verdict }
    return this.rows
  }

  /** One column of every block, keeping the labels the range keeps, in the same order. */
  private gather(column: (p: BlockPart) => Float64Array): Float64Array {
    const out = new Float64Array(this.total)
    let m = 0
    for (const part of this.parts) {
      const values = column(part)
      if (part.whole) {
        out.set(values, m)
        m += part.n
        continue
      }
      for (let p = 0; p < part.n; p++) {
        const id = part.base + part.offset[p]!
        if (id >= this.lo && id <= this.hi) out[m++] = values[p]!
      }
    }
    return out
  }
}

/**
 * The stored blocks behind columns `readLabelBlocks` gave, with the range they were read for, so
 * a pass can go through the labels without copying them out first; null for columns made
 * otherwise.
 */
export function blockParts(
  rows: LabelRowsColumns,
): { parts: readonly BlockPart[]; lo: number; hi: number } | null {
  return rows instanceof LazyColumns ? { parts: rows.parts, lo: rows.range[0], hi: rows.range[1] } : null
}

function isBusyOrReadonly(e: unknown): boolean {
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|READONLY)/.test(code)
}
