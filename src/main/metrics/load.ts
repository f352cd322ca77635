import type { LabelSchema } from '../../shared/labelSchemas'
import { resolveGold } from '../gold/gold'
import type { Db } from '../store/connection'
import { NONE, SUPPORTED, UNSUPPORTED } from './binary'

/**
 * Gathers what the metrics need in a few SQL passes into typed columns indexed by a dense
 * target index, so a million verdict rows cost no per-row objects.
 */

export interface TargetColumns {
  schema: LabelSchema
  /** Label space of the confusion matrices (numeric schemas: none). */
  labels: string[]
  variants: string[]
  /** target id → dense index, -1 when not a current target of the dataset */
  indexOf: Int32Array
  ids: Int32Array
  variant: Uint16Array
  candidate: Int32Array
  item: Int32Array
  goldBin: Int8Array
  goldCode: Int16Array
  /** Human score per target: the number itself, the schema's score, or the binary (1 supported). */
  goldNum: Float64Array
  goldCount: number
}

export interface RunColumns {
  bin: Int8Array
  code: Int16Array
  num: Float64Array
  /** 0 none, 1 ok, 2 na, 3 error */
  status: Uint8Array
  hasScores: boolean
}

export const ST_NONE = 0
export const ST_OK = 1
export const ST_NA = 2
export const ST_ERROR = 3

/** Binary code and label code of a verdict under the schema, plus its numeric reading. */
export function verdictCoder(schema: LabelSchema, labels: string[]) {
  const codes = new Map(labels.map((l, i) => [l, i]))
  const bin = new Map<string, number>()
  if (schema.type === 'categorical')
    for (const [k, v] of Object.entries(schema.binary))
      bin.set(k, v === 'supported' ? SUPPORTED : UNSUPPORTED)
  return {
    bin(verdict: string | null, score: number | null): number {
      if (schema.type === 'numeric') {
        const x = score ?? (verdict === null || verdict.trim() === '' ? Number.NaN : Number(verdict))
        if (!Number.isFinite(x)) return NONE
        return x >= schema.threshold ? SUPPORTED : UNSUPPORTED
      }
      return verdict === null ? NONE : (bin.get(verdict) ?? NONE)
    },
    code(verdict: string | null): number {
      return verdict === null ? -1 : (codes.get(verdict) ?? -1)
    },
    num(verdict: string | null, score: number | null): number {
      if (score !== null) return score
      if (verdict === null) return Number.NaN
      if (schema.type === 'numeric') return verdict.trim() === '' ? Number.NaN : Number(verdict)
      const s = schema.scores?.[verdict]
      if (s !== undefined) return s
      const b = bin.get(verdict)
      return b === undefined ? Number.NaN : b === SUPPORTED ? 1 : 0
    },
  }
}

export function loadTargets(db: Db, datasetId: number, schema: LabelSchema): TargetColumns {
  const labels = schema.type === 'categorical' ? [...schema.values] : []
  const rows = db
    .prepare(
      `SELECT t.id, c.variant, t.candidate_id, t.item_id FROM targets t JOIN units u ON u.id = t.unit_id
       JOIN candidates c ON c.id = t.candidate_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL ORDER BY t.id`,
    )
    .raw()
    .all(datasetId) as [number, string, number, number][]
  const n = rows.length
  const maxId = n === 0 ? 0 : rows[n - 1]![0]
  const indexOf = new Int32Array(maxId + 1).fill(-1)
  const ids = new Int32Array(n)
  const variant = new Uint16Array(n)
  const candidate = new Int32Array(n)
  const item = new Int32Array(n)
  const variantCodes = new Map<string, number>()
  rows.forEach(([id, v, c, it], i) => {
    indexOf[id] = i
    ids[i] = id
    let code = variantCodes.get(v)
    if (code === undefined) {
      code = variantCodes.size
      variantCodes.set(v, code)
    }
    variant[i] = code
    candidate[i] = c
    item[i] = it
  })
  const goldBin = new Int8Array(n).fill(NONE)
  const goldCode = new Int16Array(n).fill(-1)
  const goldNum = new Float64Array(n).fill(Number.NaN)
  const coder = verdictCoder(schema, labels)
  let goldCount = 0
  for (const g of resolveGold(db, datasetId).values()) {
    const i = g.targetId < indexOf.length ? indexOf[g.targetId]! : -1
    if (i < 0) continue
    goldBin[i] = coder.bin(g.verdict, null)
    goldCode[i] = coder.code(g.verdict)
    goldNum[i] = coder.num(g.verdict, null)
    if (goldBin[i] !== NONE) goldCount++
  }
  return {
    schema,
    labels,
    variants: [...variantCodes.keys()],
    indexOf,
    ids,
    variant,
    candidate,
    item,
    goldBin,
    goldCode,
    goldNum,
    goldCount,
  }
}

/** One run's verdicts as columns over the dataset's targets. */
export function loadRun(
  db: Db,
  runId: number,
  t: TargetColumns,
  coder: ReturnType<typeof verdictCoder>,
): RunColumns {
  const n = t.ids.length
  const bin = new Int8Array(n).fill(NONE)
  const code = new Int16Array(n).fill(-1)
  const num = new Float64Array(n).fill(Number.NaN)
  const status = new Uint8Array(n)
  let hasScores = false
  const stmt = db.prepare('SELECT target_id, status, verdict, score FROM verdicts WHERE run_id = ?').raw()
  for (const row of stmt.iterate(runId) as IterableIterator<[number, string, string | null, number | null]>) {
    const id = row[0]
    const i = id < t.indexOf.length ? t.indexOf[id]! : -1
    if (i < 0) continue
    const st = row[1]
    if (st === 'ok') {
      const b = coder.bin(row[2], row[3])
      // A verdict outside the schema is a format failure, like an unparseable reply.
      if (b === NONE) {
        status[i] = ST_NA
        continue
      }
      status[i] = ST_OK
      bin[i] = b
      code[i] = coder.code(row[2])
      num[i] = coder.num(row[2], row[3])
      if (row[3] !== null) hasScores = true
    } else status[i] = st === 'na' ? ST_NA : ST_ERROR
  }
  return { bin, code, num, status, hasScores }
}

/** Gold of the other annotators, and one annotator's own labels, as binary columns. */
export function loadHuman(
  db: Db,
  datasetId: number,
  annotatorId: number,
  t: TargetColumns,
  coder: ReturnType<typeof verdictCoder>,
): { own: Int8Array; othersGold: Int8Array } {
  const n = t.ids.length
  const own = new Int8Array(n).fill(NONE)
  const othersGold = new Int8Array(n).fill(NONE)
  const rows = db
    .prepare('SELECT target_id, verdict FROM labels WHERE annotator_id = ? AND verdict IS NOT NULL')
    .raw()
    .all(annotatorId) as [number, string][]
  for (const [id, verdict] of rows) {
    const i = id < t.indexOf.length ? t.indexOf[id]! : -1
    if (i >= 0) own[i] = coder.bin(verdict, null)
  }
  for (const g of resolveGold(db, datasetId, annotatorId).values()) {
    const i = g.targetId < t.indexOf.length ? t.indexOf[g.targetId]! : -1
    if (i >= 0) othersGold[i] = coder.bin(g.verdict, null)
  }
  return { own, othersGold }
}
