import type { Db } from '../store/connection'

/**
 * Each judge run's verdicts as one column (table `verdict_columns`, migration 0100): a byte per
 * target id from `lo`, 0 for no verdict, otherwise 1 + the index of the verdict's
 * (status, verdict) pair in `dict`. Reading a run is then one row however many verdicts it has.
 * The column is a cache: triggers delete it whenever the run's verdicts change, and it is built
 * again from the rows on the next read.
 */

export type VerdictPair = readonly [status: string, verdict: string | null]

export interface VerdictColumn {
  lo: number
  dict: readonly VerdictPair[]
  codes: Uint8Array
}

/** Most distinct (status, verdict) pairs a column holds: codes are one byte, 0 is "none". */
const MAX_DICT = 255
/** A column may be this many times longer than the run has verdicts (gaps cost a byte each). */
const MAX_SPARSENESS = 4

const dictSchema = (text: string): VerdictPair[] => {
  const value: unknown = JSON.parse(text)
  if (
    !Array.isArray(value) ||
    !value.every(
      (p) =>
        Array.isArray(p) &&
        p.length === 2 &&
        typeof p[0] === 'string' &&
        (p[1] === null || typeof p[1] === 'string'),
    )
  )
    throw new Error('verdict_columns.dict is not a list of [status, verdict] pairs')
  return value as VerdictPair[]
}

/** How many of a run's verdicts are verdicts, N/As and errors, read off its column. */
export function columnCounts(column: VerdictColumn): { ok: number; na: number; err: number } {
  const perCode = new Uint32Array(256)
  const codes = column.codes
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as number
    perCode[code] = (perCode[code] as number) + 1
  }
  const counts = { ok: 0, na: 0, err: 0 }
  column.dict.forEach(([status], i) => {
    const n = perCode[i + 1] ?? 0
    if (status === 'ok') counts.ok += n
    else if (status === 'na') counts.na += n
    else counts.err += n
  })
  return counts
}

/** The targets whose verdict in this column has this status, in target order. */
export function columnTargets(column: VerdictColumn, status: string): number[] {
  const wanted = new Uint8Array(256)
  column.dict.forEach(([s], i) => {
    if (s === status) wanted[i + 1] = 1
  })
  const out: number[] = []
  const codes = column.codes
  for (let i = 0; i < codes.length; i++) if (wanted[codes[i] as number]) out.push(column.lo + i)
  return out
}

type Built = { lo: number; dict: VerdictPair[]; codes: Uint8Array } | null

/**
 * The column of one run from its verdict rows, or null when the rows do not fit one: a verdict
 * with an explicit score (the column keeps no scores), too many distinct verdicts, or target ids
 * so sparse the column would mostly be gaps.
 */
export function buildColumn(rows: readonly (readonly [number, string, string | null, number])[]): Built {
  if (rows.length === 0) return { lo: 0, dict: [], codes: new Uint8Array(0) }
  let lo = Number.POSITIVE_INFINITY
  let hi = Number.NEGATIVE_INFINITY
  for (const [id, , , scored] of rows) {
    if (scored) return null
    if (id < lo) lo = id
    if (id > hi) hi = id
  }
  const span = hi - lo + 1
  if (span > MAX_SPARSENESS * rows.length + 1024) return null
  const codes = new Uint8Array(span)
  const dict: VerdictPair[] = []
  const index = new Map<string, number>()
  for (const [id, status, verdict] of rows) {
    // JSON of the pair tells a null verdict from the string "null".
    const key = JSON.stringify([status, verdict])
    let c = index.get(key)
    if (c === undefined) {
      if (dict.length === MAX_DICT) return null
      c = dict.push([status, verdict])
      index.set(key, c)
    }
    codes[id - lo] = c
  }
  return { lo, dict, codes }
}

/**
 * The columns of these runs, building (and storing) the missing ones. A run whose verdicts do not
 * fit a column is absent from the result: the caller reads its rows. Reading and storing one
 * run's column happen in one write transaction, so no verdict written meanwhile by another
 * process can be missed by a stored column. A workspace that cannot be written to (read-only, or
 * busy past the timeout) still gets the columns, built but not stored; one from before migration
 * 0100 reads its rows.
 */
export function verdictColumns(db: Db, runIds: readonly number[]): Map<number, VerdictColumn> {
  const out = new Map<number, VerdictColumn>()
  if (runIds.length === 0) return out
  // A workspace opened read-only is not migrated and may predate the table.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'verdict_columns'").get())
    return out
  const stored = db
    .prepare(
      `SELECT run_id, lo, dict, codes FROM verdict_columns WHERE run_id IN (${runIds.map((id) => Math.trunc(id)).join(',')})`,
    )
    .raw()
    .all() as [number, number, string, Buffer | null][]
  const known = new Set<number>()
  for (const [runId, lo, dict, codes] of stored) {
    known.add(runId)
    if (codes !== null)
      out.set(runId, {
        lo,
        dict: dictSchema(dict),
        codes: new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength),
      })
  }
  const missing = runIds.filter((id) => !known.has(id))
  if (missing.length === 0) return out
  const rowsOf = db.prepare(
    'SELECT target_id, status, verdict, score IS NOT NULL FROM verdicts WHERE run_id = ?',
  )
  const store = db.prepare('INSERT INTO verdict_columns (run_id, lo, dict, codes) VALUES (?, ?, ?, ?)')
  const build = (runId: number): Built => {
    const rows = rowsOf.raw().all(runId) as [number, string, string | null, number][]
    return buildColumn(rows)
  }
  const buildAndStore = db.transaction((runId: number): Built => {
    const column = build(runId)
    store.run(runId, column?.lo ?? 0, JSON.stringify(column?.dict ?? []), column?.codes ?? null)
    return column
  })
  for (const runId of missing) {
    let column: Built
    try {
      column = db.readonly ? build(runId) : buildAndStore.immediate(runId)
    } catch (e) {
      if (!isBusyOrReadonly(e)) throw e
      column = build(runId)
    }
    if (column !== null) out.set(runId, column)
  }
  return out
}

function isBusyOrReadonly(e: unknown): boolean {
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|READONLY)/.test(code)
}
