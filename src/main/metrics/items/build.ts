import type { ItemCorrelationLine, ItemLevel, ItemSeries } from '../../../shared/contract/itemLevel'
import { lexicalScores } from '../../judges/lexical'
import { runLabel } from '../snapshot'
import { LevelDraws } from '../stats/levelDraws'
import { summaryLevelIntervals, systemLevelIntervalsOf } from '../stats/levelIntervals'
import { averaged, documentCoefficientsOf, systemMeansOf } from '../stats/levels'
import { responseNumbers, type ScoredColumns } from '../stats/scoredColumns'
import { itemCorrelation, Resamples } from './correlate'
import { readableCorrelation, readableSummaryLevel, readableSystemLevel } from './readable'
import { ITEM_SCORE_DEFINITIONS, type ItemScoreKind, type ScoreColumns, scoreKindFor } from './scores'
import {
  goldSeries,
  humanSeries,
  type ItemLevelInput,
  type Prepared,
  responseIndex,
  runScores,
  targetsByKind,
} from './seriesScores'

/**
 * Item-level series and correlations of a dataset: the gold's item scores per unit kind, every
 * annotator's and every judge run's, and each one's correlation with the human item scores
 * (overall and per variant). Pure over the loaded columns.
 */

interface Series {
  meta: Omit<ItemSeries, 'values' | 'units' | 'responseLabels' | 'unmarked'>
  scores: ScoreColumns
}

interface Pairs {
  x: Float64Array
  y: Float64Array
}

/** Each response's document and system, numbered once for every line (scoredColumns.ts). */
type ResponseNumbers = ReturnType<typeof responseNumbers>

/**
 * The (judge, human) item-score pairs of a line as columns, and per variant in the order the
 * variants first appear among them; correlated once B is known. No row object per response:
 * every line of a million-verdict dataset walks every response.
 */
function pairsOf(
  numbers: ResponseNumbers,
  judge: ScoreColumns,
  human: ScoreColumns,
): { overall: ScoredColumns; byVariant: [string, Pairs][] } {
  const n = pairCount(judge, human)
  const x = new Float64Array(n)
  const y = new Float64Array(n)
  const doc = new Int32Array(n)
  const sys = new Int32Array(n)
  const S = numbers.systemNames.length
  const perSystem = new Int32Array(S)
  const seen: number[] = []
  let m = 0
  for (let k = 0; k < judge.has.length; k++) {
    if (!judge.has[k] || !human.has[k]) continue
    const s = numbers.sys[k]!
    x[m] = judge.score[k]!
    y[m] = human.score[k]!
    doc[m] = numbers.doc[k]!
    sys[m++] = s
    if (perSystem[s]!++ === 0) seen.push(s)
  }
  const variants = seen.map((s) => ({
    x: new Float64Array(perSystem[s]!),
    y: new Float64Array(perSystem[s]!),
  }))
  const slot = new Int32Array(S)
  seen.forEach((s, j) => {
    slot[s] = j
  })
  const fill = new Int32Array(seen.length)
  for (let i = 0; i < n; i++) {
    const j = slot[sys[i]!]!
    const v = variants[j]!
    v.x[fill[j]!] = x[i]!
    v.y[fill[j]!++] = y[i]!
  }
  const overall: ScoredColumns = {
    n,
    judge: x,
    human: y,
    doc,
    docs: numbers.docs,
    sys,
    systemNames: numbers.systemNames,
  }
  return { overall, byVariant: seen.map((s, j) => [numbers.systemNames[s]!, variants[j]!]) }
}

/** A series' scores as the report lists them, one entry per response. */
function seriesColumns(
  c: ScoreColumns,
  labelled: boolean,
): Pick<ItemSeries, 'values' | 'units' | 'unmarked' | 'responseLabels'> {
  const R = c.has.length
  // Filled in order by index, so each list stays a packed array however many responses.
  const values: (number | null)[] = []
  const units: number[] = []
  for (let k = 0; k < R; k++) {
    const has = c.has[k] === 1
    values.push(has ? c.score[k]! : null)
    units.push(has ? c.units[k]! : 0)
  }
  let responseLabels: (string | null)[] | null = null
  if (labelled) {
    responseLabels = []
    for (let k = 0; k < R; k++) responseLabels.push(c.has[k] ? (c.labels?.[k] ?? null) : null)
  }
  return { values, units, unmarked: c.unmarked, responseLabels }
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
  const correlate = (x: ArrayLike<number>, y: ArrayLike<number>) =>
    readableCorrelation(itemCorrelation(x, y, boot, resamples), boot.level)
  const numbers = responseNumbers(
    inputs.responses.map((r) => r.itemId),
    inputs.responses.map((r) => r.variant),
  )
  const correlations: ItemCorrelationLine[] = pending.map(({ judge, human, ...meta }) => {
    const { overall, byVariant } = pairsOf(numbers, judge, human)
    const systems = systemMeansOf(overall)
    const docs = documentCoefficientsOf(overall)
    return {
      ...meta,
      overall: correlate(overall.judge, overall.human),
      summaryLevel: readableSummaryLevel(averaged(docs), summaryLevelIntervals(docs, boot, levelDraws)),
      systemLevel: readableSystemLevel(
        correlate(
          systems.map((m) => m.judge),
          systems.map((m) => m.human),
        ),
        systemLevelIntervalsOf(overall, boot, levelDraws),
      ),
      byVariant: Object.fromEntries(byVariant.map(([k, v]) => [k, correlate(v.x, v.y)])),
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
    series: series.map(({ meta, scores }) => ({
      ...meta,
      ...seriesColumns(scores, meta.unitKind === 'triplet'),
    })),
    correlations,
  }
}
