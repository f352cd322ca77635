import {
  type CorrelationRow,
  type DatasetMetrics,
  type Figures,
  spreadRunsWords,
} from '../../shared/contract/metrics'
import {
  costSplitLines,
  SPLIT_PARTS_UNPRICED,
  splitIsEmpty,
  splitPartsUnpriced,
} from '../../shared/costSplit'
import { humanCostGap, NO_TIME_RECORDED, untimedWords } from '../../shared/humanCost'
import { humanRowLabel } from '../../shared/humanRowLabel'
import { coefficientCell } from '../../shared/itemLevelRows'
import { COST_PER_1000_NOTE, RAI_HEAD, RAI_NOTE } from '../../shared/judgeRates'
import { DEFAULT_REFCHECKER_NA, REFCHECKER_NA_WORDS } from '../../shared/refcheckerNa'
import { ALL_REUSED } from '../../shared/reusedReplies'
import { batchPriceWords, costMark, NO_PRICE, priceUnknown } from '../../shared/runNames'
import {
  ciMark,
  MIN_CORRELATION_PAIRS,
  READ_CORRELATION_PAIRS,
  rateNote,
  withNote,
} from '../../shared/smallSample'
import { money, NOT_DEFINED, pct, pctCi, pValue } from './format'
import { itemLevelTables } from './itemLevelTable'
import { refcheckerTables } from './refchecker'
import {
  agreementTable,
  cohenTable,
  INTERVALS_NOTE,
  kappaCell,
  rateCi,
  releaseAgreementTable,
} from './smallSample'

/** A report table: rendered to Markdown and HTML alike so the two never drift apart. */
export interface Table {
  title: string
  note?: string
  head: string[]
  rows: string[][]
}

/** Which human labels AUROC counted as positive, in words a reader can check against the data. */
export function aurocSplit(c: Pick<CorrelationRow, 'aurocCut'>): string {
  if (!c.aurocCut) return 'human = 1 (supported)'
  const why = c.aurocCut.source === 'schema' ? 'schema pass threshold' : 'midpoint of the range'
  return `human ≥ ${c.aurocCut.threshold} (${why})`
}

/**
 * A variant's error rate with its interval and denominator, so a rate over three targets reads as
 * such: 0.0% alone over one target would look like a measured perfect score. Under
 * MIN_RATE_TARGETS it takes the mark every other rate takes, as the chart's pale bar does.
 */
function rateN(f: Figures | undefined): string {
  if (f === undefined || f.errorRate === null) return NOT_DEFINED
  const mark = ciMark(f.errorRateCiMethod)
  const how = mark !== '' && f.errorRateCi !== null ? `${mark}, ` : ''
  return withNote(`${pctCi(f.errorRate, f.errorRateCi)} (${how}n ${f.n})`, rateNote(f.n))
}

/** A judge's or a person's rate (error rate, accuracy, F1) with its interval, its method and the small-sample mark. */
function rateCell(
  x: number | null,
  iv: [number, number] | null,
  method: Figures['errorRateCiMethod'],
  n: number,
) {
  return x === null ? rateCi(x, iv, method) : withNote(rateCi(x, iv, method), rateNote(n))
}

/** A run's cost in words: never $0 where no price is known, marked where the cache answered all or a batch some. */
function judgeCost(j: DatasetMetrics['judges'][number]): string {
  if (priceUnknown(j.costBasis, j.calls)) return NO_PRICE
  return [
    money(j.cost),
    batchPriceWords(j.batchCalls, j.calls),
    costMark(j.costBasis, j.calls),
    j.answeredFromCache ? ALL_REUSED : null,
  ]
    .filter(Boolean)
    .join(', ')
}

const untimedOf = (h: DatasetMetrics['humans'][number]) =>
  Math.max(0, (h.labelled ?? 0) - (h.timedLabels ?? 0))

/** A person's cost per 1,000, saying how many untimed labels it leaves out. */
function humanPer1000(per1000: number, untimed: number): string {
  return untimed > 0 ? `${money(per1000)} (${untimedWords(untimed)})` : money(per1000)
}

/** What a target-level correlation pairs up, for its small-sample mark. */
const pairsOf = (c: CorrelationRow) => (c.level === 'candidate' ? 'candidates' : 'targets')

export function reportTables(m: DatasetMetrics): Table[] {
  const tables: Table[] = []
  tables.push({
    title: 'Judges against gold',
    note: `Error rate excludes N/A verdicts and transport errors. ${INTERVALS_NOTE}`,
    head: [
      'Judge',
      'n',
      'N/A',
      'Errors',
      'Error rate [95% CI]',
      'Accuracy',
      'F1 unsupported [95% CI]',
      'κ',
      'Calls',
      'Tokens in/out',
      'Cost',
    ],
    rows: m.judges.map((j) => [
      j.label,
      String(j.n),
      `${j.na} (${pct(j.naRate)})`,
      `${j.errors} (${pct(j.transportErrorRate)})`,
      rateCell(j.errorRate, j.errorRateCi, j.errorRateCiMethod, j.n),
      rateCell(j.accuracy, null, null, j.n),
      rateCell(j.f1Unsupported, j.f1Ci, j.f1CiMethod, j.n),
      kappaCell(j.kappa, j.n),
      j.answeredFromCache ? `${j.calls} (${ALL_REUSED})` : String(j.calls),
      `${j.promptTokens}/${j.completionTokens}`,
      judgeCost(j),
    ]),
  })
  const ms = (x: number | null) => (x === null ? NOT_DEFINED : `${Math.round(x)} ms`)
  tables.push({
    title: 'Cost and time',
    note: `Latency percentiles leave out calls whose reply was reused (nothing was sent). ${COST_PER_1000_NOTE}`,
    head: [
      'Judge',
      'Calls',
      'Prompt tokens',
      'Completion tokens',
      'Tokens by price',
      'Cost',
      'Cost / 1,000',
      'Wall time',
      'Latency p50',
      'Latency p95',
    ],
    rows: m.judges.map((j) => [
      j.label,
      String(j.calls),
      String(j.promptTokens),
      String(j.completionTokens),
      splitIsEmpty(j.costSplit)
        ? NOT_DEFINED
        : `${costSplitLines(j.costSplit, money).join(' · ')}${splitPartsUnpriced(j.costSplit, j.cost) ? ` (${SPLIT_PARTS_UNPRICED})` : ''}`,
      judgeCost(j),
      priceUnknown(j.costBasis, j.calls)
        ? NO_PRICE
        : j.costPer1000 === null
          ? NOT_DEFINED
          : `${money(j.costPer1000)} per 1,000 ${j.costUnit}`,
      j.wallSeconds === null ? NOT_DEFINED : `${j.wallSeconds.toFixed(1)} s`,
      ms(j.latencyP50),
      ms(j.latencyP95),
    ]),
  })
  tables.push({
    title: 'Humans as judges (each annotator against the gold of the others)',
    head: [
      'Annotator',
      'n',
      'Error rate [95% CI]',
      'Accuracy',
      'F1 unsupported [95% CI]',
      'κ',
      'Active hours',
      'Cost',
      'Cost / 1,000 targets',
    ],
    // Cost: the person's own active hours on these targets × their hourly rate.
    rows: m.humans.map((h) => [
      h.source ? humanRowLabel(h) : h.annotator,
      String(h.n),
      rateCell(h.errorRate, h.errorRateCi, h.errorRateCiMethod, h.n),
      rateCell(h.accuracy, null, null, h.n),
      rateCell(h.f1Unsupported, h.f1Ci, h.f1CiMethod, h.n),
      kappaCell(h.kappa, h.n),
      h.activeSeconds === undefined
        ? NOT_DEFINED
        : h.activeSeconds > 0
          ? (h.activeSeconds / 3600).toFixed(2)
          : NO_TIME_RECORDED,
      h.cost == null ? (humanCostGap(h) ?? NOT_DEFINED) : money(h.cost),
      h.costPer1000 == null ? (humanCostGap(h) ?? NOT_DEFINED) : humanPer1000(h.costPer1000, untimedOf(h)),
    ]),
  })
  tables.push({
    title: 'Error rate by variant',
    head: ['Judge', ...m.variants],
    rows: [
      ...m.judges.map((j) => [j.label, ...m.variants.map((v) => rateN(j.byVariant[v]))]),
      ...m.humans.map((h) => [humanRowLabel(h), ...m.variants.map((v) => rateN(h.byVariant[v]))]),
    ],
  })
  tables.push(agreementTable(m))
  // People first; then the release's own labels apart: each person against them, their own
  // agreement among themselves, and their pairs.
  for (const t of [
    cohenTable(m),
    cohenTable(m, 'person-source'),
    releaseAgreementTable(m),
    cohenTable(m, 'sources'),
  ])
    if (t !== null) tables.push(t)
  if (m.correlations.length > 0)
    tables.push({
      title: 'Scores against human labels',
      note: `AUROC: the chance that the judge scores a positive target above a negative one. Numeric human labels are split for it at the threshold shown: the label schema’s pass threshold, or the middle of its range where the schema has none. “not defined” means every human label fell on the same side. Over fewer than ${READ_CORRELATION_PAIRS} pairs a figure is marked too few to read; under ${MIN_CORRELATION_PAIRS} none is given (—).`,
      head: [
        'Judge',
        'Level',
        'Against',
        'n',
        'Pearson',
        'Spearman',
        'Kendall τ-b',
        'AUROC',
        'AUROC positive if',
      ],
      rows: m.correlations.map((c) => [
        c.label,
        c.level,
        c.against,
        String(c.n),
        coefficientCell(c.pearson, null, c.n, pairsOf(c)),
        coefficientCell(c.spearman, null, c.n, pairsOf(c)),
        coefficientCell(c.kendallTauB, null, c.n, pairsOf(c)),
        coefficientCell(c.auroc, null, c.n, pairsOf(c)),
        aurocSplit(c),
      ]),
    })
  tables.push(...itemLevelTables(m))
  if (m.spreads.length > 0)
    tables.push({
      title: 'Spread over repeated runs of one config (batch and call-by-call runs apart)',
      head: ['Config', 'Runs', 'Mean ER', 'SD', 'Min', 'Max'],
      rows: m.spreads.map((s) => [
        s.label,
        spreadRunsWords(s),
        pct(s.errorRate?.mean ?? null),
        s.errorRate?.sd == null ? NOT_DEFINED : pct(s.errorRate.sd),
        pct(s.errorRate?.min ?? null),
        pct(s.errorRate?.max ?? null),
      ]),
    })
  if (m.mcnemar.length > 0)
    tables.push({
      title: "McNemar's exact test between judges",
      head: ['Judge A', 'Judge B', 'Both judged', 'Only A right', 'Only B right', 'p'],
      rows: m.mcnemar.map((r) => [
        `#${r.a}`,
        `#${r.b}`,
        String(r.n),
        String(r.aOnly),
        String(r.bOnly),
        pValue(r.pValue),
      ]),
    })
  for (const j of m.judges) {
    if (j.confusion.labels.length === 0) continue
    tables.push({
      title: `Confusion matrix: ${j.label} (rows gold, columns judge)`,
      head: ['gold \\ judge', ...j.confusion.labels],
      rows: j.confusion.full.map((row, g) => [j.confusion.labels[g]!, ...row.map(String)]),
    })
  }
  const rai = m.judges.filter((j) => j.rai.length > 0)
  if (rai.length > 0)
    tables.push({
      title: 'RAI consistency improvement per round',
      note: RAI_NOTE,
      head: RAI_HEAD,
      rows: rai.flatMap((j) =>
        j.rai.map((r) => [
          j.label,
          String(r.round),
          String(r.inconsistent),
          String(r.corrected),
          String(r.failed),
          String(r.unscored),
          rateCi(r.rate, r.rateCi, r.rateCi === null ? null : 'wilson'),
          `${rateCi(r.cumulativeRate, r.cumulativeCi, r.cumulativeCi === null ? null : 'wilson')} (${r.correctedSoFar}/${r.originals})`,
        ]),
      ),
    })
  const ref = m.judges.filter((j) => j.refchecker !== null)
  if (ref.length > 0 || m.goldRefchecker)
    tables.push({
      title: `RefChecker label distribution (macro average over responses; ${REFCHECKER_NA_WORDS[m.refcheckerEval?.naRule ?? DEFAULT_REFCHECKER_NA]})`,
      head: ['Source', 'Entailment', 'Neutral', 'Contradiction'],
      rows: [
        ...(m.goldRefchecker
          ? [
              [
                'gold',
                pct(m.goldRefchecker.entailment),
                pct(m.goldRefchecker.neutral),
                pct(m.goldRefchecker.contradiction),
              ],
            ]
          : []),
        ...ref.map((j) => [
          j.label,
          pct(j.refchecker!.entailment),
          pct(j.refchecker!.neutral),
          pct(j.refchecker!.contradiction),
        ]),
      ],
    })
  tables.push(...refcheckerTables(m))
  return tables
}
