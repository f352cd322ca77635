import { isDefaultGoldRule } from '../../shared/goldRule'
import type { Binary, LabelSchema } from '../../shared/labelSchemas'
import { ownScoreBinary } from '../../shared/ownScore'
import type { HandedBlocks } from '../labels/blocks'
import { type LabelPass, loadLabelColumns } from '../labels/columns'
import { storedGoldRows } from '../labels/gold'
import { compileGoldRule, type GoldDecider } from '../labels/rules'
import type { Db } from '../store/connection'
import { datasetSettings } from '../store/repos/datasets'
import { type SpanColumns, ST_NONE } from './runStatus'
import { sharedInt8, sharedInt32 } from './sharedColumns'
import { NONE, SUPPORTED, UNSUPPORTED } from './stats/binary'
import { goldCodes, type LabelColumns } from './stats/labelColumns'
import { readTargetRows, type TargetRows } from './targetRows'

export type { SpanColumns }

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
  /** The packed label pass `human` was built from (null: read row by row), for lining up seconds. */
  labelPass: LabelPass | null
  /** stored (adjudicated / imported) gold as a code into human.values, -1 none */
  stored: Int32Array
  goldBin: Int8Array
  goldCode: Int16Array
  /** Human score per target: the number itself, the schema's score, or the binary (1 supported); made when first read. */
  goldNum: Float64Array
  goldCount: number
  /** The dataset's gold rule leaving one annotator out (−1: none); null = default strict majority. */
  goldRule: ((exclude: number) => GoldDecider) | null
}

export interface RunColumns {
  bin: Int8Array
  /** The verdict's index in the schema's labels, −1 for none (a byte when there are at most 127 labels). */
  code: Int8Array | Int16Array
  num: Float64Array
  /** 0 none, 1 ok, 2 na, 3 error */
  status: Uint8Array
  hasScores: boolean
}

/**
 * The dense target indexes a run reached, [from, to): outside them its status is ST_NONE, so a
 * pass counting its verdicts can stop there (twenty runs over a tenth of a million targets).
 */
export function runSpan(run: Pick<RunColumns, 'status'>): [from: number, to: number] {
  const known = spans.get(run)
  if (known) return known
  const span = scanSpan(run.status)
  spans.set(run, span)
  return span
}

/** The span of a run's statuses, found by scanning them. */
export function scanSpan(st: Uint8Array): [from: number, to: number] {
  // Four statuses at a time where they are all ST_NONE (0): a run over a tenth of a million
  // targets leaves nine tenths of them untouched.
  const words = st.byteOffset % 4 === 0 ? new Uint32Array(st.buffer, st.byteOffset, st.length >>> 2) : null
  let from = 0
  if (words) while (from >>> 2 < words.length && words[from >>> 2] === 0) from += 4
  while (from < st.length && st[from] === ST_NONE) from++
  let to = st.length
  while (to > from && to % 4 !== 0 && st[to - 1] === ST_NONE) to--
  if (words && to % 4 === 0) while (to - 4 >= from && words[(to >>> 2) - 1] === 0) to -= 4
  while (to > from && st[to - 1] === ST_NONE) to--
  return [from, to]
}

/** Runs' spans, found once: a loaded run's columns do not change. */
const spans = new WeakMap<Pick<RunColumns, 'status'>, [number, number]>()

/**
 * Tells runSpan the span a loader saw while it wrote the run's every verdict: the span scanSpan
 * would find, without reading a million statuses (most of which no pass reads otherwise).
 */
export function noteSpan(run: RunColumns, span: [from: number, to: number]): void {
  spans.set(run, span)
}

const spanColumns = new WeakMap<Pick<RunColumns, 'status'>, SpanColumns>()

/**
 * The run's columns over its span: those the loader made (a run read from its stored column is
 * held over its span alone, its full-length columns made only if some pass asks for them), or
 * views of its full-length columns.
 */
export function runSpanColumns(run: RunColumns): SpanColumns {
  const known = spanColumns.get(run)
  if (known) return known
  const [from, to] = runSpan(run)
  const end = Math.max(from, to)
  const made = {
    from,
    to: end,
    bin: run.bin.subarray(from, end),
    code: run.code.subarray(from, end),
    status: run.status.subarray(from, end),
  }
  spanColumns.set(run, made)
  return made
}

/** Tells runSpan and runSpanColumns the span columns a loader made the run from. */
export function noteSpanColumns(run: RunColumns, columns: SpanColumns): void {
  spans.set(run, [columns.from, columns.to])
  spanColumns.set(run, columns)
}

/** Runs whose numbers are their label codes' numbers (read as codes, no score of their own). */
const codeNumbers = new WeakMap<RunColumns, { labelNum: Float64Array | undefined }>()

/** Tells runCodeNumbers that the run's number at a target is `labelNum[code]` (NaN without a code or labelNum). */
export function noteCodeNumbers(run: RunColumns, labelNum: Float64Array | undefined): void {
  codeNumbers.set(run, { labelNum })
}

/**
 * The number of each label code when the run's numbers are made from its codes (the number at a
 * target is `labelNum[code]`, NaN without a code; null: NaN everywhere), so a pass over its span
 * fills no full-length column of NaN per run; undefined when its numbers are its own (`run.num`).
 */
export function runCodeNumbers(run: RunColumns): Float64Array | null | undefined {
  const coded = codeNumbers.get(run)
  return coded ? (coded.labelNum ?? null) : undefined
}

export { ST_ERROR, ST_NA, ST_NONE, ST_OK } from './runStatus'

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
        // DCR's and the holistic judge's words on a numeric dataset (shared/ownScore.ts).
        const own = score === null ? null : ownScoreBinary(verdict)
        if (own !== null) return own === 'supported' ? SUPPORTED : UNSUPPORTED
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

/**
 * Fills the gold columns from gold codes (into human.values). The scores column is made when
 * first read: only correlations with numeric gold and a disagreement's numeric gold read it, and
 * at a million targets it is 8 MB of fresh memory the Agreement view would touch for nothing.
 */
export function setGold(t: TargetColumns, coder: Coder, gold: Int32Array): void {
  const values = t.human.values
  const bins = values.map((v) => coder.bin(v, null))
  const codes = values.map((v) => coder.code(v))
  const nums = values.map((v) => coder.num(v, null))
  const { goldBin, goldCode } = t
  let count = 0
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i]!
    const b = g < 0 ? NONE : bins[g]!
    goldBin[i] = b
    goldCode[i] = g < 0 ? -1 : codes[g]!
    if (b !== NONE) count++
  }
  t.goldCount = count
  let num: Float64Array | null = null
  Object.defineProperty(t, 'goldNum', {
    configurable: true,
    enumerable: true,
    get(): Float64Array {
      if (num) return num
      num = new Float64Array(gold.length)
      for (let i = 0; i < gold.length; i++) {
        const g = gold[i]!
        num[i] = g < 0 ? Number.NaN : nums[g]!
      }
      return num
    },
  })
}

/** Target id → dense index (−1: not one of the ids), for ids in ascending order. */
export function indexOfIds(ids: Int32Array): Int32Array {
  const n = ids.length
  const indexOf = new Int32Array((n === 0 ? 0 : ids[n - 1]!) + 1).fill(-1)
  for (let i = 0; i < n; i++) indexOf[ids[i]!] = i
  return indexOf
}

/** What a loader read already, while nothing changed (snapshotInBackground.ts). */
export interface ReadAlready {
  rows?: TargetRows
  /** indexOfIds of `rows`' ids, made already. */
  indexOf?: Int32Array
  labelBlocks?: HandedBlocks | null
}

/** Current targets of a dataset with their labels and gold. */
export function loadTargets(
  db: Db,
  datasetId: number,
  schema: LabelSchema,
  includeControls = false,
  read: ReadAlready = {},
): TargetColumns {
  const labels = schema.type === 'categorical' ? [...schema.values] : []
  // Control items (annotation projects) measure annotators, not judges: left out unless asked.
  const { ids, variant, candidate, item, variants } =
    read.rows ?? readTargetRows(db, datasetId, includeControls)
  const n = ids.length
  const maxId = n === 0 ? 0 : ids[n - 1]!
  const indexOf = (read.rows && read.indexOf) || indexOfIds(ids)
  let labelPass: LabelPass | null = null
  const human = loadLabelColumns(
    db,
    datasetId,
    labels,
    n === 0 ? 0 : ids[0]!,
    maxId,
    indexOf,
    n,
    (p) => {
      labelPass = p
    },
    read.labelBlocks,
  )
  // Shared with the Compare view's worker thread, as the variants and label columns are (sharedColumns.ts).
  const stored = sharedInt32(n).fill(-1)
  const goldRows = storedGoldRows(db, datasetId)
  for (const [id, v] of goldRows) {
    const i = id < indexOf.length ? indexOf[id]! : -1
    if (i < 0) continue
    let c = human.values.indexOf(v)
    if (c < 0) c = human.values.push(v) - 1
    stored[i] = c
  }
  const coder = verdictCoder(schema, labels)
  const t: TargetColumns = {
    goldRule: goldRuleFor(db, datasetId, human.values, coder),
    schema,
    labels,
    variants,
    indexOf,
    ids,
    variant,
    candidate,
    item,
    human,
    labelPass,
    stored,
    goldBin: sharedInt8(n),
    goldCode: new Int16Array(n),
    goldNum: new Float64Array(0),
    goldCount: 0,
  }
  setGold(t, coder, goldCodes(human, stored, -1, t.goldRule?.(-1)))
  return t
}

/** The dataset's gold rule over label codes; null for the default (goldCodes' own majority). */
function goldRuleFor(
  db: Db,
  datasetId: number,
  values: readonly string[],
  coder: Coder,
): TargetColumns['goldRule'] {
  const rule = datasetSettings(db, datasetId).goldRule
  if (isDefaultGoldRule(rule)) return null
  const binary = values.map((v): Binary | null => {
    const b = coder.bin(v, null)
    return b === SUPPORTED ? 'supported' : b === UNSUPPORTED ? 'unsupported' : null
  })
  const people = db.prepare('SELECT id, name, kind FROM annotators').all() as {
    id: number
    name: string
    kind: string
  }[]
  const annotatorIds = new Map(people.map((a) => [a.name, a.id]))
  const sourceIds = new Set(people.filter((a) => a.kind === 'source').map((a) => a.id))
  return (exclude) => compileGoldRule(rule, { binary, annotatorIds, sourceIds, exclude })
}
