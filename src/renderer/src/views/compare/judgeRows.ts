import { judgeColour } from '../../../../shared/charts'
import type { DatasetMetrics, Figures } from '../../../../shared/contract/metrics'
import { type CostSplit, splitIsEmpty } from '../../../../shared/costSplit'
import { humanCostGap } from '../../../../shared/humanCost'
import { humanRowLabel } from '../../../../shared/humanRowLabel'
import type { CostUnit } from '../../../../shared/judgeRates'
import { countOf } from '../../../../shared/plural'
import { batchPriceWords, costMark, priceUnknown } from '../../../../shared/runNames'

/** One table row: a judge run or an annotator scored like a judge. */
export interface Row {
  key: string
  kind: 'judge' | 'human'
  name: string
  runId: number | null
  /** The judge's colour in the charts, so a row and its bars read as one. */
  colour: string | null
  f: Figures
  calls: number | null
  tokens: number | null
  cost: number | null
  /** A judge's tokens by the price each was paid at, and their money; null where it paid no provider. */
  split?: CostSplit | null
  /** How much of the cost is at a provider's batch price, in words (all, or some of the calls). */
  batch?: string | null
  /** How the cost was priced, when that needs saying (src/shared/runNames.ts costMark). */
  costMark?: string | null
  per1000: number | null
  /** What the 1,000 are: facts for fact methods; null for people (their targets). */
  per1000Of?: CostUnit
  /** A person's: why there is no cost (no time recorded, no rate); null when there is one. */
  costGap?: string | null
  /** A judge's: made with no price, so its cost is unknown (never shown as $0). */
  noPrice?: boolean
  /** A judge's: every answer came from the response cache. */
  fromCache?: boolean
  /** A person's labels with no time, left out of the cost per 1,000. */
  untimed?: number
  /** Wall time and call latency, shown on hover over the cost. */
  timing: string | null
}

export type SortKey =
  | 'name'
  | 'n'
  | 'na'
  | 'errors'
  | 'errorRate'
  | 'accuracy'
  | 'f1Unsupported'
  | 'kappa'
  | 'calls'
  | 'tokens'
  | 'cost'
  | 'per1000'

export function value(r: Row, key: SortKey): number | string | null {
  switch (key) {
    case 'name':
      return r.name
    case 'calls':
      return r.calls
    case 'tokens':
      return r.tokens
    case 'cost':
      return r.cost
    case 'per1000':
      return r.per1000
    default:
      return r.f[key]
  }
}

export function rowsOf(m: DatasetMetrics): Row[] {
  return [
    ...m.judges.map(
      (j, k): Row => ({
        key: `run-${j.runId}`,
        kind: 'judge',
        name: j.status === 'done' ? j.label : `${j.label} — ${j.status}`,
        runId: j.runId,
        colour: judgeColour(k),
        f: j,
        calls: j.calls,
        tokens: j.promptTokens + j.completionTokens,
        cost: j.cost,
        split: splitIsEmpty(j.costSplit) ? null : j.costSplit,
        costMark: costMark(j.costBasis, j.calls),
        batch: batchPriceWords(j.batchCalls, j.calls),
        per1000: j.costPer1000,
        per1000Of: j.costUnit,
        noPrice: priceUnknown(j.costBasis, j.calls),
        fromCache: j.answeredFromCache,
        timing: [
          j.wallSeconds === null ? null : `wall ${j.wallSeconds.toFixed(1)} s`,
          j.latencyP50 === null ? null : `latency p50 ${Math.round(j.latencyP50)} ms`,
          j.latencyP95 === null ? null : `p95 ${Math.round(j.latencyP95)} ms`,
        ]
          .filter(Boolean)
          .join(' · '),
      }),
    ),
    ...m.humans.map(
      (h): Row => ({
        key: `human-${h.annotatorId}`,
        kind: 'human',
        name: humanRowLabel(h),
        runId: null,
        colour: null,
        f: h,
        calls: null,
        tokens: null,
        cost: h.cost ?? null,
        costGap: humanCostGap(h),
        per1000: h.costPer1000 ?? null,
        untimed: Math.max(0, (h.labelled ?? 0) - (h.timedLabels ?? 0)),
        timing:
          h.activeSeconds === undefined || h.labelled === undefined
            ? null
            : `${(h.activeSeconds / 3600).toFixed(2)} active hours on ${countOf(h.labelled, 'target')}`,
      }),
    ),
  ]
}
