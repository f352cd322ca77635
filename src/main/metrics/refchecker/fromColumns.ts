import type { RefcheckerEval, RefJudge } from '../../../shared/contract/refchecker'
import { DEFAULT_REFCHECKER_NA, type RefcheckerNaRule } from '../../../shared/refcheckerNa'
import type { Db } from '../../store/connection'
import { type RunColumns, ST_NA, ST_OK, type TargetColumns } from '../load'
import { REFCHECKER_CLASSES, type RefClass } from '../stats/methods'
import {
  type EvalOptions,
  evaluateByVariant,
  type Response,
  type TripletPair,
  tripletErrorRate,
} from './evaluate'
import { threeWayScores } from './threeWay'

const isClass = (v: string | undefined): v is RefClass =>
  (REFCHECKER_CLASSES as readonly string[]).includes(v ?? '')

/** Every response (candidate) of the dataset with its variant, those with no triplets included. */
export function datasetResponses(db: Db, datasetId: number): { id: number; variant: string }[] {
  return db
    .prepare(
      `SELECT c.id AS id, c.variant AS variant FROM candidates c JOIN items i ON i.id = c.item_id
       WHERE i.dataset_id = ? ORDER BY c.id`,
    )
    .all(datasetId) as { id: number; variant: string }[]
}

/** The responses with the labels one source gives their triplets (code −1: none). */
export function responsesOf(
  all: readonly { id: number; variant: string }[],
  t: TargetColumns,
  codeOf: (i: number) => number,
): Response[] {
  const byId = new Map<number, Response>()
  for (const c of all) byId.set(c.id, { key: c.id, variant: c.variant, triplets: 0, labels: [] })
  for (let i = 0; i < t.ids.length; i++) {
    const r = byId.get(t.candidate[i]!)
    if (!r) continue
    r.triplets++
    const code = codeOf(i)
    const label = code >= 0 ? t.labels[code] : undefined
    if (isClass(label)) r.labels.push(label)
  }
  return [...byId.values()]
}

/**
 * The human labels' figures and every checker run's, next to each other. A checker's N/A counts
 * as Neutral in its distribution under the benchmark's rule (shared/refcheckerNa.ts); its
 * per-triplet error against the humans is taken over readable labels only, as every error rate is.
 */
export function refcheckerEvaluation(
  db: Db,
  datasetId: number,
  t: TargetColumns,
  runs: readonly { id: number; label: string; columns: RunColumns }[],
  opts: EvalOptions & { naRule?: RefcheckerNaRule },
): RefcheckerEval | null {
  if (t.schema.type !== 'categorical' || t.schema.name !== 'refchecker') return null
  const naRule = opts.naRule ?? DEFAULT_REFCHECKER_NA
  const all = datasetResponses(db, datasetId)
  const human = evaluateByVariant(
    responsesOf(all, t, (i) => t.goldCode[i]!),
    opts,
  )
  const neutral = t.labels.indexOf('neutral')
  const judges: RefJudge[] = runs.map((r) => {
    const run = r.columns
    const code = (i: number) => (run.status[i] === ST_OK ? run.code[i]! : -1)
    const shareCode =
      naRule === 'neutral' ? (i: number) => (run.status[i] === ST_NA ? neutral : code(i)) : code
    let naTriplets = 0
    for (let i = 0; i < t.ids.length; i++) if (run.status[i] === ST_NA) naTriplets++
    const pairs: TripletPair[] = []
    for (let i = 0; i < t.ids.length; i++) {
      const h = t.goldCode[i]! >= 0 ? t.labels[t.goldCode[i]!] : undefined
      const j = code(i) >= 0 ? t.labels[code(i)] : undefined
      if (isClass(h) && isClass(j)) pairs.push({ human: h, judge: j, response: t.candidate[i]! })
    }
    const err = tripletErrorRate(pairs, opts)
    const three = threeWayScores(pairs)
    return {
      ...evaluateByVariant(responsesOf(all, t, shareCode), opts),
      runId: r.id,
      label: r.label,
      naTriplets,
      tripletsCompared: err.n,
      tripletErrorRate: err.rate,
      tripletErrorCi: err.ci,
      tripletErrorCiMethod: err.ciMethod,
      tripletAccuracy: three.accuracy,
      tripletMacroF1: three.macroF1,
      tripletF1: pairs.length === 0 ? null : three.f1,
    }
  })
  return { human, judges, naRule }
}
