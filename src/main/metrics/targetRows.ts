import type { Db } from '../store/connection'
import { candidateNameIndex } from './candidateNames'
import { CODE_SPAN, sqlString } from './packing'
import { sharedUint16 } from './sharedColumns'
import { CONTROL, CURRENT as CURRENT_UNIT, readTargetBlocks, type TargetBlockRows } from './targetBlocks'

/**
 * The current targets of a dataset (controls left out unless asked) as typed columns in target
 * id order, with variant codes given in first-seen order. A million rows of four columns cost
 * more in JavaScript arrays than in SQLite, so the usual path reads one packed integer per
 * target (its id and candidate) and takes each candidate's item and variant from the dataset's
 * candidates, a tenth as many rows. The row-by-row read stays as the reference and the fallback.
 */
export interface TargetRows {
  ids: Int32Array
  variant: Uint16Array
  candidate: Int32Array
  item: Int32Array
  variants: string[]
}

const CURRENT = `t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
  AND (? = 1 OR NOT EXISTS (SELECT 1 FROM controls x WHERE x.target_id = t.id))`

export function readTargetRows(db: Db, datasetId: number, includeControls: boolean): TargetRows {
  return packedTargetRows(db, datasetId, includeControls) ?? targetRowsByRow(db, datasetId, includeControls)
}

/** The reference: one row per target. */
export function targetRowsByRow(db: Db, datasetId: number, includeControls: boolean): TargetRows {
  const rows = db
    .prepare(
      `SELECT t.id, c.variant, t.candidate_id, t.item_id FROM targets t JOIN units u ON u.id = t.unit_id
       JOIN candidates c ON c.id = t.candidate_id WHERE ${CURRENT} ORDER BY t.id`,
    )
    .raw()
    .all(datasetId, includeControls ? 1 : 0) as [number, string, number, number][]
  const n = rows.length
  const out = empty(n)
  const variantCodes = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    const [id, v, c, it] = rows[i]!
    out.ids[i] = id
    let code = variantCodes.get(v)
    if (code === undefined) {
      code = variantCodes.size
      variantCodes.set(v, code)
    }
    out.variant[i] = code
    out.candidate[i] = c
    out.item[i] = it
  }
  out.variants = [...variantCodes.keys()]
  return out
}

function empty(n: number): TargetRows {
  return {
    ids: new Int32Array(n),
    variant: sharedUint16(n),
    candidate: new Int32Array(n),
    item: new Int32Array(n),
    variants: [],
  }
}

/**
 * Null when the packed path cannot give the same answer: ids too large to pack, a target whose
 * candidate is not one of the dataset's, or whose item is not its candidate's.
 */
function packedTargetRows(db: Db, datasetId: number, includeControls: boolean): TargetRows | null {
  const blocks = readTargetBlocks(db, datasetId)
  if (blocks) {
    const rows = db.transaction(() => fromBlocks(db, datasetId, blocks, includeControls))()
    if (rows) return rows
  }
  const table = candidateTable(db, datasetId)
  if (table === null) return targetRowsByRow(db, datasetId, includeControls)
  const { cLo, itemOf, nameOf, names } = table
  const cSpan = itemOf.length
  const maxTarget = (db.prepare('SELECT MAX(id) FROM targets').pluck().get() as number | null) ?? 0
  if ((maxTarget + 1) * cSpan * 2 >= 2 ** 53) return null
  const packed = db
    .prepare(
      `SELECT (t.id * ${cSpan} + t.candidate_id - ${cLo}) * 2 + (t.item_id <> c.item_id OR t.candidate_id NOT BETWEEN ${cLo} AND ${cLo + cSpan - 1})
       FROM targets t JOIN units u ON u.id = t.unit_id JOIN candidates c ON c.id = t.candidate_id
       WHERE ${CURRENT} ORDER BY t.id`,
    )
    .pluck()
    .all(datasetId, includeControls ? 1 : 0) as number[]
  const n = packed.length
  const out = empty(n)
  const codes = firstSeenCodes(names.length)
  for (let i = 0; i < n; i++) {
    const v = packed[i]!
    if (v % 2 !== 0) return null
    const rest = v / 2
    const c = rest % cSpan
    if (c < 0 || itemOf[c]! < 0) return null
    out.ids[i] = (rest - c) / cSpan
    out.candidate[i] = c + cLo
    out.item[i] = itemOf[c]!
    const code = codes.of(nameOf[c]!)
    out.variant[i] = code
  }
  out.variants = codes.order.map((k) => names[k]!)
  return out
}

/**
 * The dataset's candidates, indexed by id − cLo: each one's item (−1: not a candidate of the
 * dataset) and its variant as an index into `names`. Null when the dataset has none. A hundred
 * thousand rows of two numbers and a string cost far more to hand over than to find, so each
 * candidate comes back as one packed integer, its variant as a code into the distinct variants.
 */
function candidateTable(
  db: Db,
  datasetId: number,
): { cLo: number; itemOf: Int32Array; nameOf: Int32Array; names: string[] } | null {
  // One read transaction: the codes and the spans hold for the packed read.
  return db.transaction(() => {
    const names = db.prepare('SELECT DISTINCT variant FROM candidates').pluck().all() as string[]
    const one = (sql: string) => (db.prepare(sql).pluck().get() as number | null) ?? 0
    const lo = one('SELECT MIN(id) FROM candidates')
    const span = one('SELECT MAX(id) FROM candidates') - lo + 1
    const iLo = one('SELECT MIN(id) FROM items')
    const iSpan = one('SELECT MAX(id) FROM items') - iLo + 1
    const k = names.length
    if (k === 0 || k > CODE_SPAN || span * iSpan * k >= 2 ** 53) return candidateRows(db, datasetId)
    const cases = names.map((v, i) => `WHEN ${sqlString(v)} THEN ${i}`).join(' ')
    const packed = db
      .prepare(
        `SELECT ((c.id - ${lo}) * ${iSpan} + c.item_id - ${iLo}) * ${k} + CASE c.variant ${cases} END
         FROM candidates c JOIN items i ON i.id = c.item_id WHERE i.dataset_id = ?`,
      )
      .pluck()
      .all(datasetId) as (number | null)[]
    if (packed.length === 0) return null
    let cMin = Number.POSITIVE_INFINITY
    let cMax = Number.NEGATIVE_INFINITY
    for (const v of packed) {
      // A variant outside the codes cannot happen inside the transaction; if it did, row by row.
      if (v === null) return candidateRows(db, datasetId)
      const rest = (v - (v % k)) / k
      const c = (rest - (rest % iSpan)) / iSpan
      if (c < cMin) cMin = c
      if (c > cMax) cMax = c
    }
    const itemOf = new Int32Array(cMax - cMin + 1).fill(-1)
    const nameOf = new Int32Array(cMax - cMin + 1).fill(-1)
    for (const v of packed as number[]) {
      const name = v % k
      const rest = (v - name) / k
      const item = rest % iSpan
      const c = (rest - item) / iSpan
      itemOf[c - cMin] = item + iLo
      nameOf[c - cMin] = name
    }
    return { cLo: cMin + lo, itemOf, nameOf, names }
  })()
}

/** `candidateTable` row by row, where the packed integers would not fit. */
function candidateRows(
  db: Db,
  datasetId: number,
): { cLo: number; itemOf: Int32Array; nameOf: Int32Array; names: string[] } | null {
  const candidates = db
    .prepare(
      `SELECT c.id, c.item_id, c.variant FROM candidates c JOIN items i ON i.id = c.item_id
       WHERE i.dataset_id = ? ORDER BY c.id`,
    )
    .raw()
    .all(datasetId) as [number, number, string][]
  if (candidates.length === 0) return null
  const cLo = candidates[0]![0]
  const cSpan = candidates[candidates.length - 1]![0] - cLo + 1
  const itemOf = new Int32Array(cSpan).fill(-1)
  const nameOf = new Int32Array(cSpan).fill(-1)
  const names = new Map<string, number>()
  for (const [id, item, variant] of candidates) {
    let k = names.get(variant)
    if (k === undefined) {
      k = names.size
      names.set(variant, k)
    }
    itemOf[id - cLo] = item
    nameOf[id - cLo] = k
  }
  return { cLo, itemOf, nameOf, names: [...names.keys()] }
}

/** Variant codes in first-seen order over the targets, as the row-by-row read gives them. */
function firstSeenCodes(names: number): { order: number[]; of(name: number): number } {
  const codeOf = new Int32Array(names).fill(-1)
  const order: number[] = []
  return {
    order,
    of(name) {
      let code = codeOf[name]!
      if (code < 0) {
        code = order.length
        codeOf[name] = code
        order.push(name)
      }
      return code
    },
  }
}

/**
 * The row-by-row read's answer from the stored target blocks (migration 0160): the same filter
 * (current unit, controls unless asked), each target's item as the block holds it (the target's
 * own), and its candidate's variant from the candidates of the targets' items alone: one range of
 * the candidates' (item, variant) index, no visit to the items. Null where that cannot answer (a
 * target whose candidate is not among them, ids too large to pack): the caller reads otherwise.
 */
function fromBlocks(
  db: Db,
  datasetId: number,
  b: TargetBlockRows,
  includeControls: boolean,
): TargetRows | null {
  const skip = includeControls ? 0 : CONTROL
  const { id, item, candidate, flags } = b
  let n = 0
  let iMin = Number.POSITIVE_INFINITY
  let iMax = Number.NEGATIVE_INFINITY
  let cMin = Number.POSITIVE_INFINITY
  let cMax = Number.NEGATIVE_INFINITY
  for (let p = 0; p < id.length; p++) {
    const f = flags[p]!
    if (!(f & CURRENT_UNIT) || f & skip) continue
    n++
    const it = item[p]!
    const c = candidate[p]!
    if (it < iMin) iMin = it
    if (it > iMax) iMax = it
    if (c < cMin) cMin = c
    if (c > cMax) cMax = c
  }
  if (n === 0) return empty(0)
  // The dataset's variants name the codes; a candidate with any other variant (another dataset's,
  // in the same range of items) packs as `k` and answers nothing.
  const names = db
    .prepare('SELECT variant FROM dataset_variants WHERE dataset_id = ? ORDER BY variant')
    .pluck()
    .all(datasetId) as string[]
  const k = names.length
  const nameOf = candidateNameIndex(db, names, [iMin, iMax], [cMin, cMax])
  if (!nameOf) return null
  // Every target kept (no old unit versions, no controls left out): the block columns as they
  // are, made for this read alone, so not copied again.
  const out: TargetRows =
    n === id.length ? { ids: id, candidate, item, variant: sharedUint16(n), variants: [] } : empty(n)
  const variant = out.variant
  // Variant codes in first-seen order, inline: a call per target costs more than the rest.
  const codeOf = new Int32Array(k).fill(-1)
  const order: number[] = []
  if (n === id.length) {
    for (let p = 0; p < n; p++) {
      const name = nameOf[candidate[p]! - cMin]!
      if (name < 0) return null
      let code = codeOf[name]!
      if (code < 0) code = codeOf[name] = order.push(name) - 1
      variant[p] = code
    }
  } else {
    const { ids } = out
    const outCandidate = out.candidate
    const outItem = out.item
    let i = 0
    for (let p = 0; p < id.length; p++) {
      const f = flags[p]!
      if (!(f & CURRENT_UNIT) || f & skip) continue
      const name = nameOf[candidate[p]! - cMin]!
      if (name < 0) return null
      let code = codeOf[name]!
      if (code < 0) code = codeOf[name] = order.push(name) - 1
      ids[i] = id[p]!
      outCandidate[i] = candidate[p]!
      outItem[i] = item[p]!
      variant[i++] = code
    }
  }
  out.variants = order.map((c) => names[c]!)
  return out
}
