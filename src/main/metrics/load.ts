import { isDefaultGoldRule } from '../../shared/goldRule'
import type { Binary, LabelSchema } from '../../shared/labelSchemas'
import { loadLabelRows } from '../labels/columns'
import { storedGoldRows } from '../labels/gold'
import { compileGoldRule, type GoldDecider } from '../labels/rules'
import type { Db } from '../store/connection'
import { datasetSettings } from '../store/repos/datasets'
import { NONE, SUPPORTED, UNSUPPORTED } from './stats/binary'
import { buildLabelColumns, goldCodes, type LabelColumns } from './stats/labelColumns'

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
  /** The dataset's gold rule leaving one annotator out (−1: none); null = default strict majority. */
  goldRule: ((exclude: number) => GoldDecider) | null
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
export function loadTargets(
  db: Db,
  datasetId: number,
  schema: LabelSchema,
  includeControls = false,
): TargetColumns {
  const labels = schema.type === 'categorical' ? [...schema.values] : []
  // Control items (annotation projects) measure annotators, not judges: left out unless asked.
  const rows = db
    .prepare(
      `SELECT t.id, c.variant, t.candidate_id, t.item_id FROM targets t JOIN units u ON u.id = t.unit_id
       JOIN candidates c ON c.id = t.candidate_id
       WHERE t.dataset_id = ? AND u.superseded_by IS NULL AND u.deleted_at IS NULL
         AND (? = 1 OR NOT EXISTS (SELECT 1 FROM controls x WHERE x.target_id = t.id)) ORDER BY t.id`,
    )
    .raw()
    .all(datasetId, includeControls ? 1 : 0) as [number, string, number, number][]
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
  const annotatorIds = new Map(
    (db.prepare('SELECT id, name FROM annotators').all() as { id: number; name: string }[]).map((a) => [
      a.name,
      a.id,
    ]),
  )
  return (exclude) => compileGoldRule(rule, { binary, annotatorIds, exclude })
}
