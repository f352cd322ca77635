import {
  type Coder,
  noteSpan,
  type RunColumns,
  runSpanColumns,
  ST_ERROR,
  ST_NA,
  ST_OK,
  type TargetColumns,
} from '../metrics/load'
import { CODE_SPAN, sqlString } from '../metrics/packing'
import { NONE } from '../metrics/stats/binary'
import type { Db } from '../store/connection'
import { emptyColumns, emptyRun, spanRun } from './runColumns'
import { type VerdictColumn, verdictColumns } from './stored'

/** Loading judge runs' verdicts into typed columns over the dataset's dense target index. */

/** Whether the schema's verdicts are read as label codes (their numbers then come from the codes). */
function codedFor(t: LoadTargets, labels = t.labels.length): boolean {
  return t.schema.type !== 'numeric' && labels + 3 <= SCORE_FLAG && t.ids.length > 0
}

/** What loading runs reads of the dataset's targets. */
export type LoadTargets = Pick<TargetColumns, 'ids' | 'indexOf' | 'labels' | 'schema'>

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
  allRunIds: readonly number[],
  t: LoadTargets,
  coder: Coder,
  opts: { columns?: boolean } = {},
): Map<number, RunColumns> {
  const n = t.ids.length
  const out = new Map<number, RunColumns>()
  const k = t.labels.length
  const numeric = t.schema.type === 'numeric'
  // Numeric verdicts all go through the per-column pass below.
  const coded = codedFor(t, k)
  const labelNum = coded ? labelNumbers(t, coder) : undefined
  if (allRunIds.length === 0) return out
  // Runs kept as columns (migration 0100) are decoded from them; the others are read row by row.
  // `columns: false` reads every run from its rows: the reference the columns are tested against.
  const columns = opts.columns === false ? new Map<number, VerdictColumn>() : verdictColumns(db, allRunIds)
  for (const id of allRunIds) {
    const column = columns.get(id)
    out.set(id, column ? fromColumn(column, t, coder, coded, labelNum) : emptyRun(n, labelNum, k))
  }
  const runIds = allRunIds.filter((id) => !columns.has(id))
  if (runIds.length === 0) return out
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

/**
 * Decodes a stored column exactly as the row readers below decode the same verdicts: through the
 * label codes when the schema's verdicts travel as codes (into columns over the run's span
 * alone), otherwise as the per-row pass does.
 */
function fromColumn(
  column: VerdictColumn,
  t: LoadTargets,
  coder: Coder,
  coded: boolean,
  labelNum: Float64Array | undefined,
): RunColumns {
  const m = column.dict.length
  const status = new Uint8Array(m + 1)
  const full = new Uint8Array(m + 1)
  const bin = new Int8Array(m + 1)
  const code = new Int16Array(m + 1)
  const num = new Float64Array(m + 1)
  const k = t.labels.length
  const labelCode = new Map(t.labels.map((l, i) => [l, i]))
  const decode = codeDecoder(t, coder)
  const probe = emptyRun(1)
  column.dict.forEach(([st, verdict], d) => {
    const c = d + 1
    if (coded) {
      const labelIndex =
        st === 'ok' ? (verdict === null ? k : (labelCode.get(verdict) ?? k)) : st === 'na' ? k + 1 : k + 2
      probe.status[0] = 0
      decode(probe, 0, labelIndex)
      status[c] = probe.status[0]!
      full[c] = labelIndex < k ? 1 : 0
      bin[c] = probe.bin[0]!
      code[c] = probe.code[0]!
      return
    }
    if (st !== 'ok') {
      status[c] = st === 'na' ? ST_NA : ST_ERROR
      return
    }
    const b = coder.bin(verdict, null)
    if (b === NONE) {
      status[c] = ST_NA
      return
    }
    status[c] = ST_OK
    full[c] = 1
    bin[c] = b
    code[c] = coder.code(verdict)
    num[c] = coder.num(verdict, null)
  })
  const { codes, lo } = column
  const indexOf = t.indexOf
  const n = t.ids.length
  const start = Math.max(0, -lo)
  const end = Math.min(codes.length, indexOf.length - lo)
  const kept = (p: number) => codes[p]! !== 0 && indexOf[lo + p]! >= 0
  // Target ids ascend with their dense index, so the first and last verdict kept bound the run's
  // span: noted here, the span is not found again by scanning a million statuses.
  let pFirst = start
  while (pFirst < end && !kept(pFirst)) pFirst++
  let pLast = end - 1
  while (pLast > pFirst && !kept(pLast)) pLast--
  const found = pFirst < end
  const from = found ? indexOf[lo + pFirst]! : n
  const to = found ? indexOf[lo + pLast]! + 1 : n
  // Coded runs are held over their span; others (numbers written here) over every target.
  const r = coded
    ? spanRun(n, { from, to, ...emptyColumns(to - from, k, true) }, labelNum, k)
    : emptyRun(n, undefined, k)
  const into = coded ? runSpanColumns(r) : r
  const at = coded ? from : 0
  for (let p = pFirst; found && p <= pLast; p++) {
    const c = codes[p]!
    if (c === 0) continue
    const i = indexOf[lo + p]!
    if (i < 0) continue
    into.status[i - at] = status[c]!
    if (full[c] === 1) {
      into.bin[i - at] = bin[c]!
      into.code[i - at] = code[c]!
      // Read as a label code, the number is the label's (spanRun makes it from the code).
      if (!coded) r.num[i] = num[c]!
    }
  }
  if (!coded) noteSpan(r, [from, to])
  return r
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

/** Each label's numeric reading, by label code. */
function labelNumbers(t: LoadTargets, coder: Coder): Float64Array {
  return Float64Array.from(t.labels, (l) => coder.num(l, null))
}

function codeDecoder(t: LoadTargets, coder: Coder) {
  const k = t.labels.length
  const labelBin = Int8Array.from(t.labels, (l) => coder.bin(l, null))
  const unknown = k === 0 ? ST_OK : ST_NA
  // The number of a label read here is the label's, made from the code (emptyRun).
  return (r: RunColumns, i: number, code: number): void => {
    if (code < k) {
      r.status[i] = ST_OK
      r.code[i] = code
      r.bin[i] = labelBin[code]!
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
  t: LoadTargets,
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
