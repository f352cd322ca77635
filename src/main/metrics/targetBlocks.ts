import type { Db } from '../store/connection'
import { countCacheWrites } from '../store/version'

/**
 * Every target kept a second time in blocks of 4,096 target ids (table `target_blocks`,
 * migration 0160): per block one row holding each target's dataset, item, candidate and two
 * flags (its unit is current; it is a control) as packed columns, and the block's datasets as
 * text (`,1,2,`) so a dataset's blocks are found without opening the others. The views read a
 * million targets as some 250 rows instead of a million rows joined with their units. It is a
 * cache: triggers on targets, units (superseded, deleted) and controls delete a block whenever
 * one of its targets changes in a way the views see, and the next read builds it again.
 */
export const TARGET_BLOCK = 4096

export const CURRENT = 1
export const CONTROL = 2

export interface TargetBlockRows {
  id: Int32Array
  item: Int32Array
  candidate: Int32Array
  /** CURRENT | CONTROL */
  flags: Uint8Array
}

type Row = [id: number, dataset: number, item: number, candidate: number, flags: number]

/**
 * Layout: item i32, candidate i32, offset u16, flags u8 when the block holds one dataset's targets
 * (the usual case); a block shared by several datasets starts with each target's dataset i32
 * (migration 0520 took that column out of the blocks of one dataset).
 */
export function encodeTargetBlock(rows: readonly Row[]): { datasets: string; data: Buffer } {
  const n = rows.length
  const seen = new Set<number>()
  for (const r of rows) seen.add(r[1])
  const shared = seen.size > 1
  const at = shared ? 4 * n : 0
  const buf = new ArrayBuffer(at + 11 * n)
  const dataset = shared ? new Int32Array(buf, 0, n) : null
  const item = new Int32Array(buf, at, n)
  const candidate = new Int32Array(buf, at + 4 * n, n)
  const offset = new Uint16Array(buf, at + 8 * n, n)
  const flags = new Uint8Array(buf, at + 10 * n, n)
  for (let p = 0; p < n; p++) {
    const [id, d, i, c, f] = rows[p]!
    if (dataset) dataset[p] = d
    item[p] = i
    candidate[p] = c
    offset[p] = id % TARGET_BLOCK
    flags[p] = f
  }
  return { datasets: `,${[...seen].sort((a, b) => a - b).join(',')},`, data: Buffer.from(buf) }
}

/** Whether a block's `datasets` names more than one dataset (its data then starts with their ids). */
const sharedBlock = (datasets: string) => datasets.indexOf(',', 1) < datasets.length - 1

const hasTable = (db: Db) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'target_blocks'").get() !==
  undefined

/**
 * The stored blocks holding a dataset's targets, in block order, their columns where they lie
 * (the Project view reads them so, a million targets without a copy); missing ones are built
 * (and stored) in one write transaction with the read, as labels/blocks.ts does. Null in a
 * workspace from before migration 0160 or with ids past 32 bits.
 */
export function readTargetBlockParts(db: Db, datasetId: number): TargetBlockPart[] | null {
  if (!hasTable(db)) return null
  const maxId = (db.prepare('SELECT MAX(id) FROM targets').pluck().get() as number | null) ?? -1
  if (maxId >= 2 ** 31) return null
  const last = Math.floor(maxId / TARGET_BLOCK)
  const rowsOf = db.prepare(
    `SELECT t.id, t.dataset_id, t.item_id, t.candidate_id,
       (u.superseded_by IS NULL AND u.deleted_at IS NULL) * ${CURRENT}
       + EXISTS (SELECT 1 FROM controls x WHERE x.target_id = t.id) * ${CONTROL}
     FROM targets t JOIN units u ON u.id = t.unit_id WHERE t.id BETWEEN ? AND ? ORDER BY t.id`,
  )
  const stored = () =>
    new Set(
      db.prepare('SELECT block FROM target_blocks WHERE block BETWEEN 0 AND ?').pluck().all(last) as number[],
    )
  const read = () =>
    db
      .prepare(
        `SELECT block, datasets, data FROM target_blocks WHERE block BETWEEN 0 AND ? AND instr(datasets, ?) > 0
         ORDER BY block`,
      )
      .raw()
      .all(last, `,${datasetId},`) as Stored[]
  const complete = (store: boolean): Stored[] => {
    const have = stored()
    const put = db.prepare('INSERT INTO target_blocks (block, datasets, data) VALUES (?, ?, ?)')
    const built: Stored[] = []
    for (let b = 0; b <= last; b++) {
      if (have.has(b)) continue
      const rows = rowsOf.raw().all(b * TARGET_BLOCK, (b + 1) * TARGET_BLOCK - 1) as Row[]
      const { datasets, data } = encodeTargetBlock(rows)
      if (store) countCacheWrites(db, put.run(b, datasets, data).changes)
      else if (datasets.includes(`,${datasetId},`)) built.push([b, datasets, data])
    }
    return store ? read() : [...read(), ...built].sort((x, y) => x[0] - y[0])
  }
  let blocks = db.transaction(() => (stored().size === last + 1 ? read() : null))()
  if (blocks === null) {
    try {
      blocks = db.readonly
        ? db.transaction(() => complete(false))()
        : db.transaction(complete).immediate(true)
    } catch (e) {
      if (!isBusyOrReadonly(e)) throw e
      blocks = db.transaction(() => complete(false))()
    }
  }
  return blocks.map(([block, datasets, raw]) => partOf(block, datasets, raw))
}

type Stored = [block: number, datasets: string, data: Buffer]

/** One stored block's columns where they lie: its targets of every dataset it holds, in id order. */
export interface TargetBlockPart {
  block: number
  n: number
  /** Each target's dataset; null when the block holds one dataset's targets alone (the usual case). */
  dataset: Int32Array | null
  item: Int32Array
  candidate: Int32Array
  /** target id − block · TARGET_BLOCK */
  offset: Uint16Array
  /** CURRENT | CONTROL */
  flags: Uint8Array
}

function partOf(block: number, datasets: string, raw: Buffer): TargetBlockPart {
  const shared = sharedBlock(datasets)
  const n = raw.byteLength / (shared ? 15 : 11)
  // Typed views need aligned offsets; a blob's buffer may start anywhere.
  const bytes = raw.byteOffset % 4 === 0 ? raw : Buffer.from(raw)
  const at = bytes.byteOffset + (shared ? 4 * n : 0)
  return {
    block,
    n,
    dataset: shared ? new Int32Array(bytes.buffer, bytes.byteOffset, n) : null,
    item: new Int32Array(bytes.buffer, at, n),
    candidate: new Int32Array(bytes.buffer, at + 4 * n, n),
    offset: new Uint16Array(bytes.buffer, at + 8 * n, n),
    flags: new Uint8Array(bytes.buffer, at + 10 * n, n),
  }
}

/** A dataset's targets in id order from the stored blocks (readTargetBlockParts), as columns. */
export function readTargetBlocks(db: Db, datasetId: number): TargetBlockRows | null {
  const parts = readTargetBlockParts(db, datasetId)
  return parts && decode(parts, datasetId)
}

function decode(parts: readonly TargetBlockPart[], datasetId: number): TargetBlockRows {
  let total = 0
  for (const part of parts) total += part.n
  const out: TargetBlockRows = {
    id: new Int32Array(total),
    item: new Int32Array(total),
    candidate: new Int32Array(total),
    flags: new Uint8Array(total),
  }
  let m = 0
  for (const { block, n, dataset, item, candidate, offset, flags } of parts) {
    const base = block * TARGET_BLOCK
    if (!dataset) {
      // A block of this dataset alone (the usual case): its columns copied whole.
      out.item.set(item, m)
      out.candidate.set(candidate, m)
      out.flags.set(flags, m)
      const ids = out.id
      for (let p = 0; p < n; p++) ids[m + p] = base + offset[p]!
      m += n
      continue
    }
    for (let p = 0; p < n; p++) {
      if (dataset[p] !== datasetId) continue
      out.id[m] = base + offset[p]!
      out.item[m] = item[p]!
      out.candidate[m] = candidate[p]!
      out.flags[m] = flags[p]!
      m++
    }
  }
  return {
    id: out.id.subarray(0, m),
    item: out.item.subarray(0, m),
    candidate: out.candidate.subarray(0, m),
    flags: out.flags.subarray(0, m),
  }
}

function isBusyOrReadonly(e: unknown): boolean {
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|READONLY)/.test(code)
}
