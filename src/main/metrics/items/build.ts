import type { ItemCorrelationLine, ItemLevel, ItemSeries } from '../../../shared/contract/itemLevel'
import type { UnitKind } from '../../../shared/labelSchemas'
import { lexicalScores } from '../../judges/lexical'
import {
  type Coder,
  type RunColumns,
  runCodeNumbers,
  runSpanColumns,
  ST_NONE,
  ST_OK,
  type TargetColumns,
} from '../load'
import { type RunRow, runLabel } from '../snapshot'
import { NONE, SUPPORTED, UNSUPPORTED } from '../stats/binary'
import { goldCodes } from '../stats/labelColumns'
import { LevelDraws } from '../stats/levelDraws'
import { summaryLevelIntervals, systemLevelIntervals } from '../stats/levelIntervals'
import { averaged, documentCoefficients, type ScoredResponse, systemMeans } from '../stats/levels'
import { type ItemBootstrap, itemCorrelation, Resamples } from './correlate'
import type { ItemInputs } from './load'
import { readableCorrelation, readableSummaryLevel, readableSystemLevel } from './readable'
import {
  ITEM_SCORE_DEFINITIONS,
  ItemScoreColumns,
  type ItemScoreKind,
  type ScoreColumns,
  scoreKindFor,
} from './scores'

/**
 * Item-level series and correlations of a dataset: the gold's item scores per unit kind, every
 * annotator's and every judge run's, and each one's correlation with the human item scores
 * (overall and per variant). Pure over the loaded columns.
 */
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
interface Prepared extends ItemLevelInput {
  respOf: Int32Array
  /** target indexes of each unit kind, in order */
  targetsOf: Map<UnitKind, Int32Array>
}

interface Series {
  meta: Omit<ItemSeries, 'values' | 'units' | 'responseLabels' | 'unmarked'>
  scores: ScoreColumns
}

function targetsByKind(input: ItemLevelInput): Map<UnitKind, Int32Array> {
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
function responseIndex(input: ItemLevelInput): Int32Array {
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
function runScores(
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
  for (const i of input.targetsOf.get(kind)!) {
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

function goldSeries(input: Prepared, kind: UnitKind, gold: Int32Array): ScoreColumns {
  const { t, coder } = input
  const values = t.human.values
  return unitScores(
    input,
    kind,
    scoreKindFor(kind),
    (i) => (gold[i]! < 0 ? NO_VERDICT : coder.bin(values[gold[i]!]!, null)),
    (i) => (gold[i]! < 0 ? Number.NaN : coder.num(values[gold[i]!]!, null)),
    (i) => (gold[i]! < 0 ? null : values[gold[i]!]!),
  ).scores
}

/**
 * The human item scores of one unit kind. Categorical schemas: from each unit's gold (the
 * dataset's gold rule). Numeric scales: from the mean of the annotators' numbers on each unit
 * (an adjudicated or imported number wins), as SummEval and the DCR paper average their experts;
 * a majority of numbers would leave most units without a score. `exclude` leaves one annotator
 * out (an annotator is scored against the others).
 */
function humanSeries(input: Prepared, kind: UnitKind, exclude: number): ScoreColumns {
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

interface Pairs {
  x: number[]
  y: number[]
}

/** The (judge, human) item-score pairs, overall and per variant; correlated once B is known. */
function pairsOf(
  input: Prepared,
  judge: ScoreColumns,
  human: ScoreColumns,
): { overall: Pairs; byVariant: Map<string, Pairs>; responses: ScoredResponse[] } {
  const x: number[] = []
  const y: number[] = []
  const responses: ScoredResponse[] = []
  const byVariant = new Map<string, { x: number[]; y: number[] }>()
  input.inputs.responses.forEach((r, k) => {
    if (!judge.has[k] || !human.has[k]) return
    const js = judge.score[k]!
    const hs = human.score[k]!
    x.push(js)
    y.push(hs)
    responses.push({ item: r.itemId, variant: r.variant, judge: js, human: hs })
    let v = byVariant.get(r.variant)
    if (!v) {
      v = { x: [], y: [] }
      byVariant.set(r.variant, v)
    }
    v.x.push(js)
    v.y.push(hs)
  })
  return { overall: { x, y }, byVariant, responses }
}

/** Responses that both sides scored. */
function pairCount(judge: ScoreColumns, human: ScoreColumns): number {
  let n = 0
  for (let k = 0; k < judge.has.length; k++) if (judge.has[k] && human.has[k]) n++
  return n
}

/**
 * Pair-resamples the whole section may spend. Small datasets (hundreds or a few thousand
 * responses) get the full count; a very large one gets fewer resamples, never under
 * ITEM_REPLICATES_MIN, and the section states the count it used (`bootstrap_replicates`). The
 * budget was set when it cost about two seconds; it is kept as it was so that the published
 * counts and intervals do not change, though it now costs a fraction of that.
 */
export const ITEM_BOOTSTRAP_BUDGET = 10_000_000
export const ITEM_REPLICATES_MIN = 100

export function replicatesFor(requested: number, totalPairs: number): number {
  if (totalPairs === 0) return requested
  return Math.min(requested, Math.max(ITEM_REPLICATES_MIN, Math.floor(ITEM_BOOTSTRAP_BUDGET / totalPairs)))
}

const ROUGE: ('rouge1' | 'rouge2' | 'rougeL')[] = ['rouge1', 'rouge2', 'rougeL']

export function buildItemLevel(given: ItemLevelInput): ItemLevel {
  const input: Prepared = { ...given, respOf: responseIndex(given), targetsOf: targetsByKind(given) }
  const { t, inputs } = input
  const kinds = [...input.targetsOf.keys()].sort()
  const series: Series[] = []
  // A line's pairs are made only when it is correlated, so its response rows are garbage by the
  // next line instead of being held for every line at once.
  const pending: (Omit<ItemCorrelationLine, 'overall' | 'byVariant' | 'summaryLevel' | 'systemLevel'> & {
    judge: ScoreColumns
    human: ScoreColumns
  })[] = []
  const humans = new Map(kinds.map((k) => [k, humanSeries(input, k, -1)]))
  // People who score whole responses (SummEval) are what a DCR run's response score is set
  // against when nobody marked the sentences themselves, as the DCR paper does.
  const wholeHuman = humans.get('whole')
  for (const kind of kinds) {
    const human = humans.get(kind)!
    const humanScore = scoreKindFor(kind)
    series.push({
      meta: {
        source: 'gold',
        runId: null,
        annotator: null,
        label: t.schema.type === 'numeric' ? 'human mean' : 'human gold',
        unitKind: kind,
        score: humanScore,
      },
      scores: human,
    })
    // Every annotator against the gold the others make, as the target-level human rows are.
    for (const a of t.human.annotatorIds) {
      const own = new Int32Array(t.ids.length).fill(-1)
      const h = t.human
      for (let i = 0; i < t.ids.length; i++)
        for (let k = h.start[i]!; k < h.start[i + 1]!; k++) if (h.annotator[k] === a) own[i] = h.code[k]!
      const mine = goldSeries(input, kind, own)
      if (mine.count === 0) continue
      const others = humanSeries(input, kind, a)
      const name = input.names.get(a) ?? `#${a}`
      const meta = { source: 'annotator' as const, runId: null, annotator: name, label: name, unitKind: kind }
      series.push({ meta: { ...meta, score: humanScore }, scores: mine })
      pending.push({
        ...meta,
        score: humanScore,
        humanScore,
        humanUnitKind: kind,
        judge: mine,
        human: others,
      })
    }
    for (const r of input.runs) {
      const run = input.columns.get(r.id)!
      const dcr = r.method === 'dcr' && kind === 'sentence'
      const { scores, rows } = runScores(input, kind, dcr ? 'dcr' : humanScore, run)
      if (rows === 0) continue
      const label = runLabel(r)
      const meta = { source: 'judge' as const, runId: r.id, annotator: null, label, unitKind: kind }
      const own: { score: ItemScoreKind; scores: ScoreColumns }[] = [
        { score: dcr ? 'dcr' : humanScore, scores },
      ]
      const tokens = inputs.lexicalTokens.get(r.id)
      if (tokens) {
        const R = inputs.responses.length
        const rouge = ROUGE.map(() => ({
          has: new Uint8Array(R),
          score: new Float64Array(R),
          units: new Int32Array(R),
          labels: null,
          rows: new Int32Array(R),
          count: 0,
          unmarked: 0,
        }))
        inputs.responses.forEach((resp, k) => {
          if (scores.rows[k] === 0) return
          const s = lexicalScores(resp.text, resp.reference, tokens)
          ROUGE.forEach((m, j) => {
            const c = rouge[j]!
            c.has[k] = 1
            c.score[k] = s[m].f
            c.units[k] = 1
            c.rows[k] = 1
            c.count++
          })
        })
        for (const [j, m] of ROUGE.entries()) own.push({ score: m, scores: rouge[j]! })
      }
      const againstWhole = dcr && human.count === 0 && wholeHuman !== undefined && wholeHuman.count > 0
      const versus = againstWhole
        ? { humanScore: scoreKindFor('whole'), humanUnitKind: 'whole' as const, human: wholeHuman }
        : { humanScore, humanUnitKind: kind, human }
      for (const o of own) {
        series.push({ meta: { ...meta, score: o.score }, scores: o.scores })
        pending.push({
          ...meta,
          score: o.score,
          humanScore: versus.humanScore,
          humanUnitKind: versus.humanUnitKind,
          judge: o.scores,
          human: versus.human,
        })
      }
    }
  }
  let total = 0
  // Each pair counts twice: overall, and in its variant.
  for (const p of pending) total += 2 * pairCount(p.judge, p.human)
  const boot = { ...input.boot, replicates: replicatesFor(input.boot.replicates, total) }
  const resamples = new Resamples(boot)
  const levelDraws = new LevelDraws(boot)
  const correlate = (p: Pairs) => readableCorrelation(itemCorrelation(p.x, p.y, boot, resamples), boot.level)
  const correlations: ItemCorrelationLine[] = pending.map(({ judge, human, ...meta }) => {
    const { overall, byVariant, responses } = pairsOf(input, judge, human)
    const systems = systemMeans(responses)
    const docs = documentCoefficients(responses)
    return {
      ...meta,
      overall: correlate(overall),
      summaryLevel: readableSummaryLevel(averaged(docs), summaryLevelIntervals(docs, boot, levelDraws)),
      systemLevel: readableSystemLevel(
        correlate({ x: systems.map((m) => m.judge), y: systems.map((m) => m.human) }),
        systemLevelIntervals(responses, boot, levelDraws),
      ),
      byVariant: Object.fromEntries([...byVariant].map(([k, v]) => [k, correlate(v)])),
    }
  })
  const items = inputs.responses.map((r) => ({
    candidateId: r.candidateId,
    itemId: r.itemId,
    extId: r.extId,
    variant: r.variant,
  }))
  return {
    replicates: boot.replicates,
    definitions: ITEM_SCORE_DEFINITIONS,
    items,
    series: series.map(({ meta, scores: c }) => ({
      ...meta,
      values: items.map((_, k) => (c.has[k] ? c.score[k]! : null)),
      units: items.map((_, k) => (c.has[k] ? c.units[k]! : 0)),
      unmarked: c.unmarked,
      responseLabels:
        meta.unitKind === 'triplet' ? items.map((_, k) => (c.has[k] ? (c.labels?.[k] ?? null) : null)) : null,
    })),
    correlations,
  }
}
