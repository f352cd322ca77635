import type { ItemCorrelationLine, ItemLevel, ItemSeries } from '../../../shared/contract/itemLevel'
import { lexicalScores } from '../../judges/lexical'
import { runLabel } from '../snapshot'
import { LevelDraws } from '../stats/levelDraws'
import { summaryLevelIntervals, systemLevelIntervals } from '../stats/levelIntervals'
import { averaged, documentCoefficients, type ScoredResponse, systemMeans } from '../stats/levels'
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
