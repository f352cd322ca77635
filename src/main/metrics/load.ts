import type { LabelSchema } from '../../shared/labelSchemas'
import type { Db } from '../store/connection'
import { NONE, SUPPORTED, UNSUPPORTED } from './binary'
import { buildLabelColumns, goldCodes, type LabelColumns } from './labelColumns'

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
  human: LabelColumns
  /** stored (adjudicated / imported) gold as a code into human.values, -1 none */
  stored: Int32Array
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

export type Coder = ReturnType<typeof verdictCoder>

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

/** Fills the gold columns from gold codes (into human.values). */
export function setGold(t: TargetColumns, coder: Coder, gold: Int32Array): void {
  const values = t.human.values
  const bins = values.map((v) => coder.bin(v, null))
  const codes = values.map((v) => coder.code(v))
  const nums = values.map((v) => coder.num(v, null))
  let count = 0
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i]!
    t.goldBin[i] = g < 0 ? NONE : bins[g]!
    t.goldCode[i] = g < 0 ? -1 : codes[g]!
    t.goldNum[i] = g < 0 ? Number.NaN : nums[g]!
    if (t.goldBin[i] !== NONE) count++
  }
  t.goldCount = count
}

/** Current targets of a dataset with their labels and gold. */
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
  for (let i = 0; i < n; i++) {
    const [id, v, c, it] = rows[i]!
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
  }
  const labelRows = loadLabelRows(db, datasetId, labels, n === 0 ? 0 : rows[0]![0], maxId)
  const human = buildLabelColumns(n, labelRows, indexOf, labels)
  const stored = new Int32Array(n).fill(-1)
  const goldRows = db
    .prepare(
      'SELECT g.target_id, g.verdict FROM gold g JOIN targets t ON t.id = g.target_id WHERE t.dataset_id = ?',
    )
    .raw()
    .all(datasetId) as [number, string][]
  for (const [id, v] of goldRows) {
    const i = id < indexOf.length ? indexOf[id]! : -1
    if (i < 0) continue
    let c = human.values.indexOf(v)
    if (c < 0) c = human.values.push(v) - 1
    stored[i] = c
  }
  const t: TargetColumns = {
    schema,
    labels,
    variants: [...variantCodes.keys()],
    indexOf,
    ids,
    variant,
    candidate,
    item,
    human,
    stored,
    goldBin: new Int8Array(n),
    goldCode: new Int16Array(n),
    goldNum: new Float64Array(n),
    goldCount: 0,
  }
  setGold(t, verdictCoder(schema, labels), goldCodes(human, stored))
  return t
}

/**
 * Current labels of the dataset's target-id range (other datasets' targets fall outside the
 * index later). Categorical verdicts travel packed into one integer per label.
 */
function loadLabelRows(
  db: Db,
  datasetId: number,
  labels: string[],
  minId: number,
  maxId: number,
): [number, number, string][] {
  const k = labels.length
  const span = db.prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM annotators').get() as {
    lo: number | null
    hi: number | null
  }
  const aLo = span.lo ?? 0
  const aSpan = (span.hi ?? 0) - aLo + 1
  const packable = k > 0 && k < CODE_SPAN && (maxId - minId + 1) * aSpan * CODE_SPAN < 2 ** 53
  if (!packable)
    return db
      .prepare(
        `SELECT l.target_id, l.annotator_id, l.verdict FROM labels l JOIN targets t ON t.id = l.target_id
         WHERE t.dataset_id = ? AND l.verdict IS NOT NULL`,
      )
      .raw()
      .all(datasetId) as [number, number, string][]
  const cases = labels.map((l, i) => `WHEN ${sqlString(l)} THEN ${i}`).join(' ')
  const packed = db
    .prepare(
      `SELECT ((target_id - ${minId}) * ${aSpan} + annotator_id - ${aLo}) * ${CODE_SPAN} + CASE verdict ${cases} ELSE ${k} END
       FROM labels WHERE target_id BETWEEN ? AND ? AND verdict IS NOT NULL`,
    )
    .pluck()
    .all(minId, maxId) as number[]
  const out: [number, number, string][] = new Array(packed.length)
  let m = 0
  for (const v of packed) {
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

function emptyRun(n: number): RunColumns {
  return {
    bin: new Int8Array(n).fill(NONE),
    code: new Int16Array(n).fill(-1),
    num: new Float64Array(n).fill(Number.NaN),
    status: new Uint8Array(n),
    hasScores: false,
  }
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`
// Target, run (or annotator) and the verdict's code are packed into one integer per row, which
// better-sqlite3 returns several times faster than a row of separate columns. Offsets keep the
// packed value small: below 2^30 V8 stores it without allocating.
const CODE_SPAN = 64
/** Added to a verdict's code when the row carries an explicit score. */
const SCORE_FLAG = 32

/**
 * Verdicts of several runs over the dataset's targets. Categorical verdicts travel as codes:
 * a run whose verdicts cover one unbroken range of target ids comes back as a single string,
 * one character per target in id order; other runs as one packed integer per verdict. Numeric
 * verdicts and explicit scores are fetched in a further pass only for the runs that have them.
 */
export function loadRuns(
  db: Db,
  runIds: readonly number[],
  t: TargetColumns,
  coder: Coder,
): Map<number, RunColumns> {
  const n = t.ids.length
  const out = new Map<number, RunColumns>()
  for (const id of runIds) out.set(id, emptyRun(n))
  if (runIds.length === 0) return out
  const k = t.labels.length
  const numeric = t.schema.type === 'numeric'
  // Numeric verdicts all go through the per-column pass below.
  const coded = !numeric && k + 3 <= SCORE_FLAG && n > 0
  // Runs with an explicit score somewhere: only they need the per-column pass.
  const scored = new Set<number>()
  let rest: readonly number[] = coded ? runIds : []
  const ordered = coded ? runTargetIndex(db) : null
  if (ordered !== null) {
    const decode = codeDecoder(t, coder)
    const left: number[] = []
    for (const id of runIds)
      if (!loadRunString(db, ordered, id, t, decode, out.get(id)!, scored)) left.push(id)
    rest = left
  }
  const tLo = n === 0 ? 0 : t.ids[0]!
  const tHi = n === 0 ? 0 : t.ids[n - 1]!
  const runLo = rest.length === 0 ? 0 : Math.min(...rest)
  const runSpan = rest.length === 0 ? 0 : Math.max(...rest) - runLo + 1
  const packable = coded && (tHi - tLo + 1) * runSpan * CODE_SPAN < 2 ** 53
  if (packable && rest.length > 0) {
    const decode = codeDecoder(t, coder)
    const packed = db
      .prepare(
        `SELECT ((target_id - ${tLo}) * ${runSpan} + run_id - ${runLo}) * ${CODE_SPAN} + ${codeSql(t.labels, 'numbers')}
           + (score IS NOT NULL) * ${SCORE_FLAG}
         FROM verdicts WHERE run_id IN (${idList(rest)}) AND target_id BETWEEN ? AND ?`,
      )
      .pluck()
      .all(tLo, tHi) as number[]
    const byOffset: (RunColumns | undefined)[] = new Array(runSpan)
    for (const id of rest) byOffset[id - runLo] = out.get(id)
    const indexOf = t.indexOf
    for (let p = 0; p < packed.length; p++) {
      const v = packed[p]!
      let code = v % CODE_SPAN
      const restV = (v - code) / CODE_SPAN
      const runOffset = restV % runSpan
      const i = indexOf[(restV - runOffset) / runSpan + tLo]!
      if (i < 0) continue
      if (code >= SCORE_FLAG) {
        code -= SCORE_FLAG
        scored.add(runOffset + runLo)
      }
      decode(byOffset[runOffset]!, i, code)
    }
  }
  // Every verdict of these runs is read column by column; of the others, only scored ones.
  const whole = numeric || !coded ? runIds : packable ? [] : rest
  const scoredOnly = runIds.filter((id) => scored.has(id) && !whole.includes(id))
  const where = [
    whole.length > 0 ? `run_id IN (${idList(whole)})` : null,
    scoredOnly.length > 0 ? `(run_id IN (${idList(scoredOnly)}) AND score IS NOT NULL)` : null,
  ].filter((c) => c !== null)
  if (where.length === 0) return out
  const extra = db
    .prepare(`SELECT run_id, target_id, status, verdict, score FROM verdicts WHERE ${where.join(' OR ')}`)
    .raw()
    .all() as [number, number, string, string | null, number | null][]
  for (const [runId, id, st, verdict, score] of extra) {
    const i = id < t.indexOf.length ? t.indexOf[id]! : -1
    if (i < 0) continue
    const r = out.get(runId)!
    if (score !== null) r.hasScores = true
    if (st !== 'ok') {
      r.status[i] = st === 'na' ? ST_NA : ST_ERROR
      continue
    }
    const b = coder.bin(verdict, score)
    // A verdict outside the schema is a format failure, like an unparseable reply.
    if (b === NONE) {
      r.status[i] = ST_NA
      continue
    }
    r.status[i] = ST_OK
    r.bin[i] = b
    r.code[i] = coder.code(verdict)
    r.num[i] = coder.num(verdict, score)
  }
  return out
}

const idList = (ids: readonly number[]) => ids.map((id) => Math.trunc(id)).join(',')

/**
 * A verdict's code: the label's index when ok (k when the verdict is outside the schema), k + 1
 * for N/A, k + 2 for a transport error; as a number or as one character ('0' + code).
 */
function codeSql(labels: readonly string[], as: 'numbers' | 'chars'): string {
  const k = labels.length
  const lit = (c: number) => (as === 'numbers' ? `${c}` : `'${String.fromCharCode(CHAR_ZERO + c)}'`)
  const cases = labels.map((l, i) => `WHEN ${sqlString(l)} THEN ${lit(i)}`).join(' ')
  const ok = k === 0 ? lit(k) : `CASE verdict ${cases} ELSE ${lit(k)} END`
  return `CASE status WHEN 'ok' THEN ${ok} WHEN 'na' THEN ${lit(k + 1)} ELSE ${lit(k + 2)} END`
}

const CHAR_ZERO = 0x30

function codeDecoder(t: TargetColumns, coder: Coder) {
  const k = t.labels.length
  const labelBin = Int8Array.from(t.labels, (l) => coder.bin(l, null))
  const labelNum = Float64Array.from(t.labels, (l) => coder.num(l, null))
  const unknown = k === 0 ? ST_OK : ST_NA
  return (r: RunColumns, i: number, code: number): void => {
    if (code < k) {
      r.status[i] = ST_OK
      r.code[i] = code
      r.bin[i] = labelBin[code]!
      r.num[i] = labelNum[code]!
    } else if (code === k) r.status[i] = unknown
    else r.status[i] = code === k + 1 ? ST_NA : ST_ERROR
  }
}

/** Name of an index on verdicts (run_id, target_id, …): a scan of it visits one run's verdicts in target order. */
function runTargetIndex(db: Db): string | null {
  const list = db.prepare('SELECT name FROM pragma_index_list(?)').pluck().all('verdicts') as string[]
  for (const name of list) {
    const cols = db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all(name) as (
      | string
      | null
    )[]
    if (cols[0] === 'run_id' && cols[1] === 'target_id') return name
  }
  return null
}

/**
 * One run's verdicts as a string in target-id order, read through that index (named, so the
 * order cannot change with the planner's mood). Usable only when the run's target ids form an
 * unbroken range, so that a character's position gives its target id; returns false otherwise.
 */
function loadRunString(
  db: Db,
  index: string,
  runId: number,
  t: TargetColumns,
  decode: ReturnType<typeof codeDecoder>,
  r: RunColumns,
  scored: Set<number>,
): boolean {
  const n = t.ids.length
  const row = db
    .prepare(
      `SELECT count(*), min(target_id), max(target_id), sum(score IS NOT NULL), group_concat(${codeSql(t.labels, 'chars')}, '')
       FROM verdicts INDEXED BY "${index.replace(/"/g, '""')}" WHERE run_id = ? AND target_id BETWEEN ? AND ?`,
    )
    .raw()
    .get(runId, t.ids[0], t.ids[n - 1]) as [
    number,
    number | null,
    number | null,
    number | null,
    string | null,
  ]
  const [count, lo, hi, withScore, codes] = row
  if (count === 0 || lo === null || hi === null || codes === null) return true
  if (hi - lo + 1 !== count || codes.length !== count) return false
  if (withScore! > 0) scored.add(runId)
  const indexOf = t.indexOf
  for (let p = 0; p < count; p++) {
    const i = indexOf[lo + p]!
    if (i >= 0) decode(r, i, codes.charCodeAt(p) - CHAR_ZERO)
  }
  return true
}

export function loadRun(db: Db, runId: number, t: TargetColumns, coder: Coder): RunColumns {
  return loadRuns(db, [runId], t, coder).get(runId)!
}
