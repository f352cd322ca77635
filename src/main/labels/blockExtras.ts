import { ServiceError } from '../app/errors'
import type { Db } from '../store/connection'

/**
 * The seconds and times of a label block's labels, kept apart from its annotators, verdicts and
 * places (table `label_block_extras`, migration 0520): they are three fifths of a block's bytes,
 * and only the Compare view's active time and narrowing chart and the exports read them, so the
 * Agreement view no longer reads them at all. A block and its extras carry the same stamp, drawn
 * when the block was built: extras are used only with the block they were built with, so a block
 * rebuilt in between (another process saving a label) can never lend a view its seconds.
 */

/** A stored row of extras: its block, its stamp and its data (a Buffer, or bytes a worker handed over). */
export type StoredExtra = [block: number, stamp: number, data: Uint8Array]

export interface PartExtras {
  seconds: Float64Array
  /** null when the block carries no times (one was not an ISO time as `now()` writes it) */
  time: Float64Array | null
}

/** A stamp for a newly built block (48 bits: two builds of one block never share one in practice). */
export function newStamp(): number {
  return Math.floor(Math.random() * 2 ** 48)
}

/** Layout: seconds f64, then time f64 when the block carries times. */
export function encodeExtras(seconds: Float64Array, time: Float64Array | null): Buffer {
  const n = seconds.length
  const buf = new ArrayBuffer(8 * n * (time ? 2 : 1))
  new Float64Array(buf, 0, n).set(seconds)
  if (time) new Float64Array(buf, 8 * n, n).set(time)
  return Buffer.from(buf)
}

/** A block's extras laid over their bytes (copied only when a blob's bytes are not aligned). */
export function decodeExtras(raw: Uint8Array, n: number, times: boolean): PartExtras | null {
  if (raw.byteLength !== 8 * n * (times ? 2 : 1)) return null
  const bytes = raw.byteOffset % 8 === 0 ? raw : Uint8Array.from(raw)
  return {
    seconds: new Float64Array(bytes.buffer, bytes.byteOffset, n),
    time: times ? new Float64Array(bytes.buffer, bytes.byteOffset + 8 * n, n) : null,
  }
}

/** What a part of a read needs to find its extras. */
export interface ExtrasKey {
  block: number
  stamp: number
  n: number
  times: boolean
}

/**
 * The extras of one read of label blocks, found when a part first asks for its seconds or times:
 * from the rows a worker handed over (read in the same transaction as the blocks), else from the
 * table, for every waiting part at once. A block whose extras are gone or carry another stamp was
 * rebuilt since it was read: the view's call is refused as passing trouble, to be made again.
 */
export class ReadExtras {
  private readonly waiting = new Map<number, ExtrasKey>()
  private found: Map<number, PartExtras> | null = null

  constructor(
    private readonly db: Db,
    /** The extras a worker read with the blocks, once they have arrived (null: not yet, or none). */
    private readonly handed: (() => readonly StoredExtra[] | null) | null = null,
  ) {}

  wait(key: ExtrasKey): void {
    this.waiting.set(key.block, key)
  }

  of(key: ExtrasKey): PartExtras {
    this.found ??= this.resolve()
    const extras = this.found.get(key.block)
    if (!extras) throw changedMeanwhile()
    return extras
  }

  private resolve(): Map<number, PartExtras> {
    const found = new Map<number, PartExtras>()
    const take = (rows: Iterable<StoredExtra>) => {
      for (const [block, stamp, data] of rows) {
        const key = this.waiting.get(block)
        if (!key || key.stamp !== stamp || found.has(block)) continue
        const extras = decodeExtras(data, key.n, key.times)
        if (extras) found.set(block, extras)
      }
    }
    take(this.handed?.() ?? [])
    const missing = [...this.waiting.keys()].filter((b) => !found.has(b))
    if (missing.length > 0 && this.db.open) {
      let first = missing[0]!
      let last = first
      for (const b of missing) {
        if (b < first) first = b
        if (b > last) last = b
      }
      take(
        this.db
          .prepare('SELECT block, stamp, data FROM label_block_extras WHERE block BETWEEN ? AND ?')
          .raw()
          .iterate(first, last) as Iterable<StoredExtra>,
      )
    }
    return found
  }
}

const changedMeanwhile = () =>
  new ServiceError(
    'unavailable',
    'The labels changed while this view was being read (someone saved a label). Nothing was changed; open the view again.',
  )
