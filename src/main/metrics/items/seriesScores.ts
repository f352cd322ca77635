import type { UnitKind } from '../../../shared/labelSchemas'
import {
  type Coder,
  type RunColumns,
  runCodeNumbers,
  runSpanColumns,
  ST_NONE,
  ST_OK,
  type TargetColumns,
} from '../load'
import type { RunRow } from '../snapshot'
import { NONE, SUPPORTED, UNSUPPORTED } from '../stats/binary'
import { goldCodes } from '../stats/labelColumns'
import type { ItemBootstrap } from './correlate'
import type { ItemInputs } from './load'
import { ItemScoreColumns, type ItemScoreKind, type ScoreColumns, scoreKindFor } from './scores'

/**
 * The item scores of each series the item-level figures correlate: the gold's per unit kind, each
 * annotator's (left out of the humans they are scored against) and each judge run's, read from
 * the loaded columns. Pure; build.ts pairs and correlates them.
 */

/** What the item-level figures of a dataset are worked out from. */
export interface ItemLevelInput {
  t: TargetColumns
  coder: Coder
  runs: readonly RunRow[]
  columns: ReadonlyMap<number, RunColumns>
  inputs: ItemInputs
  names: ReadonlyMap<number, string>
  alpha: number
  beta: number
  boot: ItemBootstrap
}

/** The input with the response of every target looked up once. */
export interface Prepared extends ItemLevelInput {
  respOf: Int32Array
  /** target indexes of each unit kind, in order */
  targetsOf: Map<UnitKind, Int32Array>
}

export function targetsByKind(input: ItemLevelInput): Map<UnitKind, Int32Array> {
  const lists = new Map<UnitKind, number[]>()
  input.inputs.kind.forEach((k, i) => {
    if (!k) return
    const list = lists.get(k)
    if (list) list.push(i)
    else lists.set(k, [i])
  })
  return new Map([...lists].map(([k, v]) => [k, Int32Array.from(v)]))
}

/** The response (dense index into inputs.responses) of every target; −1 for none. */
export function responseIndex(input: ItemLevelInput): Int32Array {
  const { t, inputs } = input
  const byCandidate = new Map(inputs.responses.map((r, k) => [r.candidateId, k]))
  // A loop, not Int32Array.from with a mapping: that goes through the iterator once per target.
  const out = new Int32Array(t.candidate.length)
  for (let i = 0; i < out.length; i++) out[i] = byCandidate.get(t.candidate[i]!) ?? -1
  return out
}

// Module constants read once: hot loops below would otherwise read them through the import.
const NO_VERDICT = NONE
const OK = ST_OK
const NOT_REACHED = ST_NONE
const YES = SUPPORTED
const NO = UNSUPPORTED

/**
 * Item scores of one unit kind from per-target binary, number and label columns; `rows` counts
 * the units that had a verdict or a number at all.
 */
function unitScores(
  input: Prepared,
  kind: UnitKind,
  score: ItemScoreKind,
  bin: (i: number) => number,
  num: (i: number) => number,
  word: (i: number) => string | null,
): { scores: ScoreColumns; rows: number } {
  const { inputs, respOf } = input
  const acc = new ItemScoreColumns(score, inputs.responses.length, input)
  const words = score === 'entailment-share'
  let rows = 0
  for (const i of input.targetsOf.get(kind)!) {
    const b = bin(i)
    const x = num(i)
    if (b === NO_VERDICT && !Number.isFinite(x)) continue
    rows++
    const r = respOf[i]!
    if (r >= 0) acc.add(r, b, x, words && b !== NO_VERDICT ? word(i) : null)
  }
  return { scores: acc.finish(), rows }
}

/**
 * The same over a judge run's columns, written out: it runs once per run over every target. It
 * reads the run over the span it reached (runSpanColumns) and its numbers from its label codes
 * where they are made from them, so it makes no full-length column per run: twenty fresh columns
 * of NaN were a sixth of the item-level figures' time, most of it the first touch of their memory.
 */
export function runScores(
  input: Prepared,
  kind: UnitKind,
  score: ItemScoreKind,
  run: RunColumns,
): { scores: ScoreColumns; rows: number } {
  const { inputs, respOf, t } = input
  const acc = new ItemScoreColumns(score, inputs.responses.length, input)
  const words = score === 'entailment-share'
  const { from, to, status, bin, code } = runSpanColumns(run)
  const byCode = runCodeNumbers(run)
  const num = byCode === undefined ? run.num : null
  const dcr = score === 'dcr'
  let rows = 0
  const targets = input.targetsOf.get(kind)!
  // An index, not for…of: this loop runs over every target once per run, and the iterator's
  // line was a quarter of the loop's samples in the profile.
  for (let at = 0; at < targets.length; at++) {
    const i = targets[at]!
    // Outside its span a run reached no target: no verdict, no number.
    const j = i - from
    const st = i >= from && i < to ? status[j]! : NOT_REACHED
    const ok = st === OK
    if (dcr && !ok) {
      const r = respOf[i]!
      if (r >= 0) acc.miss(r, st !== NOT_REACHED)
      continue
    }
    if (!ok) continue
    const c = code[j]!
    const b = bin[j]!
    const x =
      num !== null ? num[i]! : byCode !== null && byCode !== undefined && c >= 0 ? byCode[c]! : Number.NaN
    if (b === NO_VERDICT && !Number.isFinite(x)) continue
    rows++
    const r = respOf[i]!
    if (r >= 0) acc.add(r, b, x, words && b !== NO_VERDICT && c >= 0 ? t.labels[c]! : null)
  }
  return { scores: acc.finish(), rows }
}

export function goldSeries(input: Prepared, kind: UnitKind, gold: Int32Array): ScoreColumns {
  const { t, coder, inputs, respOf } = input
  const values = t.human.values
  // Each label value's reading once, not once per target: the values are few, the targets many.
  const binOf = Int32Array.from(values, (v) => coder.bin(v, null))
  const numOf = Float64Array.from(values, (v) => coder.num(v, null))
  const score = scoreKindFor(kind)
  const acc = new ItemScoreColumns(score, inputs.responses.length, input)
  const words = score === 'entailment-share'
  for (const i of input.targetsOf.get(kind)!) {
    const c = gold[i]!
    // No gold: no verdict and no number, so the unit does not count.
    if (c < 0) continue
    const b = binOf[c]!
    const x = numOf[c]!
    if (b === NO_VERDICT && !Number.isFinite(x)) continue
    const r = respOf[i]!
    if (r >= 0) acc.add(r, b, x, words && b !== NO_VERDICT ? values[c]! : null)
  }
  return acc.finish()
}

/**
 * The human item scores of one unit kind. Categorical schemas: from each unit's gold (the
 * dataset's gold rule). Numeric scales: from the mean of the annotators' numbers on each unit
 * (an adjudicated or imported number wins), as SummEval and the DCR paper average their experts;
 * a majority of numbers would leave most units without a score. `exclude` leaves one annotator
 * out (an annotator is scored against the others).
 */
export function humanSeries(input: Prepared, kind: UnitKind, exclude: number): ScoreColumns {
  const { t, coder } = input
  if (t.schema.type !== 'numeric')
    return goldSeries(input, kind, goldCodes(t.human, t.stored, exclude, t.goldRule?.(exclude)))
  const h = t.human
  const threshold = t.schema.threshold
  const mean = new Float64Array(t.ids.length).fill(Number.NaN)
  for (let i = 0; i < t.ids.length; i++) {
    if (t.stored[i]! >= 0) {
      mean[i] = coder.num(h.values[t.stored[i]!]!, null)
      continue
    }
    let sum = 0
    let n = 0
    for (let k = h.start[i]!; k < h.start[i + 1]!; k++) {
      if (h.annotator[k] === exclude) continue
      const x = coder.num(h.values[h.code[k]!]!, null)
      if (!Number.isFinite(x)) continue
      sum += x
      n++
    }
    if (n > 0) mean[i] = sum / n
  }
  return unitScores(
    input,
    kind,
    scoreKindFor(kind),
    (i) => (Number.isFinite(mean[i]!) ? (mean[i]! >= threshold ? YES : NO) : NO_VERDICT),
    (i) => mean[i]!,
    () => null,
  ).scores
}
