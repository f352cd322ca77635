// Oracle: the item-level code as it was before the columnar rewrite (kept only for the
// equality tests in itemLevelOracle.test.ts and pairCorrelations.test.ts). Nothing in src imports it.

import { lexicalScores } from '../../../src/main/judges/lexical'
import type { ItemInputs } from '../../../src/main/metrics/items/load'
import {
  readableCorrelation,
  readableSummaryLevel,
  readableSystemLevel,
} from '../../../src/main/metrics/items/readable'
import { ITEM_SCORE_DEFINITIONS } from '../../../src/main/metrics/items/scores'
import {
  type Coder,
  type RunColumns,
  ST_NONE,
  ST_OK,
  type TargetColumns,
} from '../../../src/main/metrics/load'
import { type RunRow, runLabel } from '../../../src/main/metrics/snapshot'
import { NONE, SUPPORTED, UNSUPPORTED } from '../../../src/main/metrics/stats/binary'
import { goldCodes } from '../../../src/main/metrics/stats/labelColumns'
import {
  documentCoefficients,
  type ScoredResponse,
  summaryLevel,
  systemMeans,
} from '../../../src/main/metrics/stats/levels'
import type { ItemCorrelationLine, ItemLevel, ItemSeries } from '../../../src/shared/contract/itemLevel'
import type { UnitKind } from '../../../src/shared/labelSchemas'
import { type ItemBootstrap, itemCorrelation } from './correlate'
import { summaryLevelIntervals, systemLevelIntervals } from './levelIntervals'
import { type ItemScore, type ItemScoreKind, itemScores, scoreKindFor, type UnitVerdict } from './scores'

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

interface Series {
  meta: Omit<ItemSeries, 'values' | 'units' | 'responseLabels' | 'unmarked'>
  scores: Map<number, ItemScore>
  unmarked?: number
}

/** Unit verdicts of one kind from per-target binary, number and label columns. */
function unitRows(
  input: ItemLevelInput,
  kind: UnitKind,
  bin: (i: number) => number,
  num: (i: number) => number,
  word: (i: number) => string | null,
): UnitVerdict[] {
  const { t, inputs } = input
  const out: UnitVerdict[] = []
  for (let i = 0; i < t.ids.length; i++) {
    if (inputs.kind[i] !== kind) continue
    const b = bin(i)
    const x = num(i)
    if (b === NONE && !Number.isFinite(x)) continue
    out.push({ response: t.candidate[i]!, bin: b, num: x, verdict: word(i) })
  }
  return out
}

function goldSeries(input: ItemLevelInput, kind: UnitKind, gold: Int32Array): Map<number, ItemScore> {
  const { t, coder } = input
  const values = t.human.values
  const rows = unitRows(
    input,
    kind,
    (i) => (gold[i]! < 0 ? NONE : coder.bin(values[gold[i]!]!, null)),
    (i) => (gold[i]! < 0 ? Number.NaN : coder.num(values[gold[i]!]!, null)),
    (i) => (gold[i]! < 0 ? null : values[gold[i]!]!),
  )
  return itemScores(scoreKindFor(kind), rows)
}

/**
 * The human item scores of one unit kind. Categorical schemas: from each unit's gold (the
 * dataset's gold rule). Numeric scales: from the mean of the annotators' numbers on each unit
 * (an adjudicated or imported number wins), as SummEval and the DCR paper average their experts;
 * a majority of numbers would leave most units without a score. `exclude` leaves one annotator
 * out (an annotator is scored against the others).
 */
function humanSeries(input: ItemLevelInput, kind: UnitKind, exclude: number): Map<number, ItemScore> {
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
  const rows = unitRows(
    input,
    kind,
    (i) => (Number.isFinite(mean[i]!) ? (mean[i]! >= threshold ? SUPPORTED : UNSUPPORTED) : NONE),
    (i) => mean[i]!,
    () => null,
  )
  return itemScores(scoreKindFor(kind), rows)
}

interface Pairs {
  x: number[]
  y: number[]
}

/** The (judge, human) item-score pairs, overall and per variant; correlated once B is known. */
function pairsOf(
  input: ItemLevelInput,
  judge: Map<number, ItemScore>,
  human: Map<number, ItemScore>,
): { overall: Pairs; byVariant: Map<string, Pairs>; responses: ScoredResponse[] } {
  const x: number[] = []
  const y: number[] = []
  const responses: ScoredResponse[] = []
  const byVariant = new Map<string, { x: number[]; y: number[] }>()
  for (const r of input.inputs.responses) {
    const j = judge.get(r.candidateId)
    const h = human.get(r.candidateId)
    if (!j || !h) continue
    x.push(j.score)
    y.push(h.score)
    responses.push({ item: r.itemId, variant: r.variant, judge: j.score, human: h.score })
    let v = byVariant.get(r.variant)
    if (!v) {
      v = { x: [], y: [] }
      byVariant.set(r.variant, v)
    }
    v.x.push(j.score)
    v.y.push(h.score)
  }
  return { overall: { x, y }, byVariant, responses }
}

/**
 * DCR's rule spelled out response by response: a response whose sentences are not all marked
 * (any status but ok) has no score; it counts as unmarked when the run reached one of them.
 */
function dcrRule(
  input: ItemLevelInput,
  run: RunColumns,
  scores: Map<number, ItemScore>,
): { scores: Map<number, ItemScore>; unmarked: number } {
  const { t } = input
  const sentences = new Map<number, number[]>()
  for (let i = 0; i < t.ids.length; i++) {
    if (input.inputs.kind[i] !== 'sentence') continue
    const list = sentences.get(t.candidate[i]!) ?? []
    list.push(i)
    sentences.set(t.candidate[i]!, list)
  }
  const kept = new Map<number, ItemScore>()
  let unmarked = 0
  for (const [c, list] of sentences) {
    const all = list.every((i) => run.status[i] === ST_OK)
    if (all) {
      const s = scores.get(c)
      if (s) kept.set(c, s)
    } else if (list.some((i) => run.status[i] !== ST_NONE)) unmarked++
  }
  return { scores: kept, unmarked }
}

/**
 * Pair-resamples the whole section may spend: about two seconds here. Small datasets (hundreds
 * or a few thousand responses) get the full count; a very large one gets fewer resamples, never
 * under ITEM_REPLICATES_MIN, and the section states the count it used.
 */
export const ITEM_BOOTSTRAP_BUDGET = 10_000_000
export const ITEM_REPLICATES_MIN = 100

export function replicatesFor(requested: number, totalPairs: number): number {
  if (totalPairs === 0) return requested
  return Math.min(requested, Math.max(ITEM_REPLICATES_MIN, Math.floor(ITEM_BOOTSTRAP_BUDGET / totalPairs)))
}

const ROUGE: ('rouge1' | 'rouge2' | 'rougeL')[] = ['rouge1', 'rouge2', 'rougeL']

export function buildItemLevel(input: ItemLevelInput): ItemLevel {
  const { t, inputs } = input
  const kinds = [...new Set(inputs.kind.filter(Boolean))].sort() as UnitKind[]
  const series: Series[] = []
  const pending: (Omit<ItemCorrelationLine, 'overall' | 'byVariant' | 'summaryLevel' | 'systemLevel'> &
    ReturnType<typeof pairsOf>)[] = []
  const wholeHuman = kinds.includes('whole') ? humanSeries(input, 'whole', -1) : undefined
  for (const kind of kinds) {
    const human = humanSeries(input, kind, -1)
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
      if (mine.size === 0) continue
      const others = humanSeries(input, kind, a)
      const name = input.names.get(a) ?? `#${a}`
      const meta = { source: 'annotator' as const, runId: null, annotator: name, label: name, unitKind: kind }
      series.push({ meta: { ...meta, score: humanScore }, scores: mine })
      pending.push({
        ...meta,
        score: humanScore,
        humanScore,
        humanUnitKind: kind,
        ...pairsOf(input, mine, others),
      })
    }
    for (const r of input.runs) {
      const run = input.columns.get(r.id)!
      const rows = unitRows(
        input,
        kind,
        (i) => (run.status[i] === ST_OK ? run.bin[i]! : NONE),
        (i) => (run.status[i] === ST_OK ? run.num[i]! : Number.NaN),
        (i) => (run.status[i] === ST_OK && run.code[i]! >= 0 ? t.labels[run.code[i]!]! : null),
      )
      if (rows.length === 0) continue
      const label = runLabel(r)
      const meta = { source: 'judge' as const, runId: r.id, annotator: null, label, unitKind: kind }
      const dcr = r.method === 'dcr' && kind === 'sentence'
      const scored = itemScores(dcr ? 'dcr' : humanScore, rows, input)
      const ruled = dcr ? dcrRule(input, run, scored) : { scores: scored, unmarked: 0 }
      const own: { score: ItemScoreKind; scores: Map<number, ItemScore>; unmarked: number }[] = [
        { score: dcr ? 'dcr' : humanScore, ...ruled },
      ]
      const tokens = inputs.lexicalTokens.get(r.id)
      if (tokens) {
        const judged = new Set(rows.map((x) => x.response))
        const rouge = new Map(ROUGE.map((m) => [m, new Map<number, ItemScore>()]))
        for (const resp of inputs.responses) {
          if (!judged.has(resp.candidateId)) continue
          const s = lexicalScores(resp.text, resp.reference, tokens)
          for (const m of ROUGE)
            rouge.get(m)!.set(resp.candidateId, { score: s[m].f, units: 1, responseLabel: null })
        }
        for (const m of ROUGE) own.push({ score: m, scores: rouge.get(m)!, unmarked: 0 })
      }
      const againstWhole = dcr && human.size === 0 && wholeHuman !== undefined && wholeHuman.size > 0
      for (const o of own) {
        series.push({ meta: { ...meta, score: o.score }, scores: o.scores, unmarked: o.unmarked })
        pending.push({
          ...meta,
          score: o.score,
          humanScore: againstWhole ? 'verdict' : humanScore,
          humanUnitKind: againstWhole ? 'whole' : kind,
          ...pairsOf(input, o.scores, againstWhole ? wholeHuman : human),
        })
      }
    }
  }
  let total = 0
  for (const p of pending) {
    total += p.overall.x.length
    for (const v of p.byVariant.values()) total += v.x.length
  }
  const boot = { ...input.boot, replicates: replicatesFor(input.boot.replicates, total) }
  // The small-sample rule (src/main/metrics/items/readable.ts, tested on its own) is laid over
  // the oracle's raw figures as over the new code's: this oracle checks what lies beneath it.
  const correlate = (x: number[], y: number[]) => readableCorrelation(itemCorrelation(x, y, boot))
  const correlations: ItemCorrelationLine[] = pending.map(({ overall, byVariant, responses, ...meta }) => ({
    ...meta,
    overall: correlate(overall.x, overall.y),
    // The level intervals as they were before their draws were shared across lines (./levelIntervals.ts).
    summaryLevel: readableSummaryLevel(
      summaryLevel(responses),
      summaryLevelIntervals(documentCoefficients(responses), boot),
    ),
    systemLevel: ((m) =>
      readableSystemLevel(
        correlate(
          m.map((v) => v.judge),
          m.map((v) => v.human),
        ),
        systemLevelIntervals(responses, boot),
      ))(systemMeans(responses)),
    byVariant: Object.fromEntries([...byVariant].map(([k, v]) => [k, correlate(v.x, v.y)])),
  }))
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
    series: series.map((s) => ({
      ...s.meta,
      values: items.map((it) => s.scores.get(it.candidateId)?.score ?? null),
      units: items.map((it) => s.scores.get(it.candidateId)?.units ?? 0),
      unmarked: s.unmarked ?? 0,
      responseLabels:
        s.meta.unitKind === 'triplet'
          ? items.map((it) => s.scores.get(it.candidateId)?.responseLabel ?? null)
          : null,
    })),
    correlations,
  }
}
