// metrics/ owns the figures of a dataset: judges against gold, humans against each other, cost.
// service.ts assembles them; stats/ holds the pure statistics (no I/O, checked by depcheck).

import type { CorrelationRow, DatasetMetrics, JudgeMetrics, McNemarRow } from '../../shared/contract/metrics'
import { costPer1000, costUnitOf } from '../../shared/judgeRates'
import { DEFAULT_REFCHECKER_NA, type RefcheckerNaRule } from '../../shared/refcheckerNa'
import { modeWord, priceUnknown } from '../../shared/runNames'
import { activeTimeInRange } from '../labels/activeTime'
import { activeTimeOn } from '../labels/projectReads'
import type { Db } from '../store/connection'
import { listAnnotators } from '../store/repos/annotators'
import { datasetSettings } from '../store/repos/datasets'
import { type CandidateCells, candidateCells, clustersInCells } from './clusterTally'
import { sharedWords } from './correctness'
import { datasetAgreement } from './datasetAgreement'
import { dcrCandidates } from './dcrCandidates'
import { figuresOfCounts } from './figures'
import { humanFigures } from './humans'
import { tallyRun } from './judgeTally'
import { type RunColumns, runSpanColumns, ST_NA, ST_NONE, ST_OK, type TargetColumns } from './load'
import { refcheckerEvaluation } from './refchecker/fromColumns'
import { runIdentity } from './runIdentity'
import { replayRuns, snapshotRunCosts } from './runInfo'
import { memoised, type RunRow, runLabel, type Snapshot } from './snapshot'
import { binaryFigures, SUPPORTED } from './stats/binary'
import { aurocCut, correlate, readableCorrelations } from './stats/correlation'
import { type CorrectnessBits, mcnemarBits } from './stats/mcnemar'
import { refcheckerDistribution } from './stats/methods'
import { chainsOfVariants, findingOf, raiCurve } from './stats/rai'
import { wilsonCi } from './stats/smallSample'
import { paretoFront, spread } from './stats/spread'
import { inDatasetOrder } from './variantOrder'

/** Why a run stays out of charts, McNemar and default choices, or null when it belongs in them. */
function exclusion(r: RunRow, f: { judged: number; na: number; errors: number }): string | null {
  if (r.status === 'failed') return `the run failed${r.error ? `: ${r.error}` : ''}`
  if (f.judged - f.na - f.errors === 0) return 'no verdicts: every target it reached was N/A or failed'
  return null
}

export { judgeRuns, runLabel } from './snapshot'

export interface MetricsOptions {
  /** Bootstrap seed: the same seed gives the same intervals. */
  seed?: number
  replicates?: number
  /** Count control items (annotation projects) as well; they are left out by default. */
  includeControls?: boolean
  /** RefChecker: what a checker N/A does to the hallucination distribution (Neutral by default). */
  refcheckerNa?: RefcheckerNaRule
}

function correlationsFor(
  r: RunRow,
  label: string,
  run: RunColumns,
  t: TargetColumns,
  alpha: number,
  beta: number,
): CorrelationRow[] {
  const out: CorrelationRow[] = []
  const numericHuman = t.schema.type === 'numeric' || t.schema.scores !== undefined
  const numericJudge = run.hasScores || numericHuman
  if (numericJudge) {
    const x: number[] = []
    const y: number[] = []
    for (let i = 0; i < t.ids.length; i++) {
      const j = run.num[i]!
      const h = t.goldNum[i]!
      if (run.status[i] === ST_OK && Number.isFinite(j) && Number.isFinite(h)) {
        x.push(j)
        y.push(h)
      }
    }
    if (x.length > 0)
      out.push({
        runId: r.id,
        label,
        level: 'target',
        against: numericHuman ? 'numeric' : 'binary',
        ...readableCorrelations(correlate(x, y, numericHuman ? aurocCut(t.schema) : null)),
      })
  }
  if (r.method === 'dcr') {
    // A candidate with an unmarked sentence has no score on either side, as the judge gives none.
    const markOf = (b: number) => (b === SUPPORTED ? 1 : b < 0 ? 0 : -1)
    const judge = dcrCandidates(t, (i) => (run.status[i] === ST_OK ? markOf(run.bin[i]!) : 0), alpha, beta)
    const gold = dcrCandidates(t, (i) => markOf(t.goldBin[i]!), alpha, beta)
    const x: number[] = []
    const y: number[] = []
    for (const [c, j] of judge) {
      const js = j.score
      const gs = gold.get(c)?.score
      if (js && gs) {
        x.push(js.score)
        y.push(gs.score)
      }
    }
    if (x.length > 0)
      out.push({
        runId: r.id,
        label,
        level: 'candidate',
        against: 'numeric',
        ...readableCorrelations(correlate(x, y)),
      })
  }
  return out
}

function raiFor(t: TargetColumns, run: RunColumns): JudgeMetrics['rai'] {
  // Each candidate the run reached, with what it found of its sentences (null: N/A or failed).
  const sentences = new Map<number, { item: number; variant: string; found: (boolean | null)[] }>()
  for (let i = 0; i < t.ids.length; i++) {
    if (run.status[i] === ST_NONE) continue
    const c = t.candidate[i]!
    let s = sentences.get(c)
    if (!s) {
      s = { item: t.item[i]!, variant: t.variants[t.variant[i]!]!, found: [] }
      sentences.set(c, s)
    }
    const b = run.bin[i]!
    s.found.push(run.status[i] !== ST_OK || b < 0 ? null : b === SUPPORTED)
  }
  const { chains, rounds } = chainsOfVariants(
    [...sentences.values()].map((s) => ({ item: s.item, variant: s.variant, finding: findingOf(s.found) })),
  )
  // A round's rate is a plain share of its inconsistent candidates: Wilson's interval over them,
  // as the cumulative one is over the originals.
  return raiCurve(chains, rounds).map((r) => ({
    ...r,
    rateCi: wilsonCi(r.corrected, r.inconsistent).ci,
    cumulativeCi: wilsonCi(r.correctedSoFar, r.originals).ci,
  }))
}

/**
 * `codes` is asked for only when the schema is RefChecker's: a run's full-length codes are made on
 * first use, as are its statuses (`naStatuses`, under the benchmark's rule: its N/As count as Neutral).
 */
function refcheckerFor(
  t: TargetColumns,
  codes: () => Int8Array | Int16Array,
  naStatuses: (() => Uint8Array) | null = null,
): JudgeMetrics['refchecker'] {
  if (t.schema.type !== 'categorical' || t.schema.name !== 'refchecker') return null
  const code = codes()
  const naStatus = naStatuses?.() ?? null
  const rows: { response: number; verdict: string }[] = []
  for (let i = 0; i < code.length; i++)
    if (naStatus?.[i] === ST_NA) rows.push({ response: t.candidate[i]!, verdict: 'neutral' })
    else if (code[i]! >= 0) rows.push({ response: t.candidate[i]!, verdict: t.labels[code[i]!]! })
  return refcheckerDistribution(rows).macro
}

/**
 * Every judge-vs-gold, human-vs-others and agreement figure of a dataset. Pure aggregation over
 * the columns that load.ts gathers; no writes.
 */
export function computeDatasetMetrics(db: Db, datasetId: number, opts: MetricsOptions = {}): DatasetMetrics {
  const { seed, replicates, includeControls, refcheckerNa } = settled(opts)
  return memoised(
    db,
    datasetId,
    `metrics:${seed}:${replicates}:${refcheckerNa}`,
    // The Agreement view's figures of the same snapshot, computed once for both views; they take
    // the place the figures hold for them, so the view's JSON keeps its order.
    () => ({
      ...datasetFigures(db, datasetId, opts),
      agreement: datasetAgreement(db, datasetId, includeControls),
    }),
    includeControls,
  )
}

const settled = (opts: MetricsOptions) => ({
  seed: opts.seed ?? 1,
  replicates: opts.replicates ?? 1000,
  includeControls: opts.includeControls ?? false,
  refcheckerNa: opts.refcheckerNa ?? DEFAULT_REFCHECKER_NA,
})

/**
 * Every figure of computeDatasetMetrics but the agreement among the annotators, whose place (after
 * `seed`) it holds empty.
 */
export type DatasetFigures = Omit<DatasetMetrics, 'agreement'> & { agreement: null }

/**
 * computeDatasetMetrics' figures but the agreement (datasetAgreement's): what this thread works
 * out of a cold Compare view while a worker thread works the agreement out (compareInBackground.ts).
 */
export function datasetFigures(db: Db, datasetId: number, opts: MetricsOptions = {}): DatasetFigures {
  const { seed, replicates, includeControls, refcheckerNa } = settled(opts)
  return memoised(
    db,
    datasetId,
    `figures:${seed}:${replicates}:${refcheckerNa}`,
    (s) => fromSnapshot(db, s, { seed, replicates }, refcheckerNa),
    includeControls,
  )
}

function fromSnapshot(
  db: Db,
  s: Snapshot,
  boot: { seed: number; replicates: number },
  refcheckerNa: RefcheckerNaRule,
): DatasetFigures {
  const { dataset, t, coder, runs, columns } = s
  const datasetId = dataset.id
  const { alpha, beta } = datasetSettings(db, datasetId)
  const seed = boot.seed
  const costs = snapshotRunCosts(db, runs)
  let dense: CandidateCells | null = null
  const clusters = () => {
    dense ??= candidateCells(t.candidate)
    return dense
  }
  const judges: JudgeMetrics[] = []
  const correlations: CorrelationRow[] = []
  const correct: CorrectnessBits[] = []
  const spans: [number, number][] = []
  for (const r of runs) {
    const run = columns.get(r.id)!
    const label = runLabel(r)
    // Counting passes look at the targets the run reached only; outside them it has no verdict.
    const reached = runSpanColumns(run)
    const span: [number, number] = [reached.from, reached.to]
    // Its figure counts, confusion matrices, correctness bits and candidates' cells in one pass.
    const tally = tallyRun(reached, t, t.variants.length, t.labels.length, clusters())
    const f = figuresOfCounts(
      tally.counts,
      t.variants,
      boot,
      clustersInCells(clusters().cells, tally.touched, boot),
    )
    judges.push({
      ...f.overall,
      runId: r.id,
      label,
      provider: r.provider,
      model: r.model,
      method: r.method,
      status: r.status,
      repeatIndex: r.repeat_index,
      configKey: runIdentity(r.config, r),
      excluded: exclusion(r, f.overall),
      perClass: binaryFigures(f.cells).perClass,
      confusion: {
        binary: tally.binary,
        labels: t.labels,
        full: tally.full,
      },
      byVariant: f.byVariant,
      ...costs.get(r.id)!,
      costPer1000: costPer1000(costs.get(r.id)!.cost, f.overall.judged - f.overall.na - f.overall.errors),
      costUnit: costUnitOf(r.method),
      answeredFromCache: false,
      refchecker: refcheckerFor(t, () => run.code, refcheckerNa === 'neutral' ? () => run.status : null),
      rai: r.method === 'dcr' ? raiFor(t, run) : [],
    })
    correlations.push(...correlationsFor(r, label, run, t, alpha, beta))
    correct.push(tally.correct)
    spans.push(span)
  }
  const mcnemarRows: McNemarRow[] = []
  for (let a = 0; a < runs.length; a++)
    for (let b = a + 1; b < runs.length; b++) {
      // A run with no verdicts (or a failed one) has nothing to test: p = 1 would read as "no difference".
      if (judges[a]!.excluded || judges[b]!.excluded) continue
      const m = mcnemarBits(correct[a]!, correct[b]!, sharedWords(spans[a]!, spans[b]!))
      mcnemarRows.push({ a: runs[a]!.id, b: runs[b]!.id, n: m.n, aOnly: m.b, bOnly: m.c, pValue: m.pValue })
    }
  // A batch run and a synchronous run of one config asked the same questions through another
  // channel (and another price): a gap between them is a mode effect, not the model's own noise,
  // so repeats are only runs of the same config in the same mode. Runs whose error rate is not
  // defined (no verdict against gold) add nothing to the figure and are not named in it.
  // A run answered wholly from the response cache replayed an earlier run's answers: named
  // beside the spread, never counted in it.
  const modes = new Map(runs.map((r) => [r.id, r.mode]))
  const replays = replayRuns(
    db,
    judges.map((j) => j.runId),
  )
  for (const j of judges) j.answeredFromCache = replays.has(j.runId)
  const groups = new Map<string, { counted: JudgeMetrics[]; replays: number[] }>()
  for (const j of judges) {
    if (j.excluded || j.errorRate === null) continue
    const key = `${modes.get(j.runId)}\u0000${j.configKey}`
    const g = groups.get(key) ?? { counted: [], replays: [] }
    if (replays.has(j.runId)) g.replays.push(j.runId)
    else g.counted.push(j)
    groups.set(key, g)
  }
  const spreads = [...groups.values()]
    .filter((g) => g.counted.length > 1)
    .map(({ counted: js, replays: left }) => {
      const mode = modes.get(js[0]!.runId) ?? 'sync'
      return {
        configKey: js[0]!.configKey,
        mode,
        label: [js[0]!.model, js[0]!.method, modeWord(mode)].filter((w) => w !== null).join(' · '),
        runIds: js.map((j) => j.runId),
        replays: left,
        errorRate: spread(js.map((j) => j.errorRate)),
      }
    })
  const annotators = listAnnotators(db)
  const names = new Map(annotators.map((a) => [a.id, a.name]))
  const sources = new Set(annotators.filter((a) => a.kind === 'source').map((a) => a.id))
  const n = t.ids.length
  const time =
    (n === 0 ? null : activeTimeInRange(db, t.ids[0]!, t.ids[n - 1]!, t.indexOf, t.labelPass)) ??
    activeTimeOn(db, t.ids)
  // Each person's time on the very targets the judges are scored on: what their cost is made of.
  const humans = humanFigures(t, coder, names, boot, clusters()).map((h) => {
    const own = time.get(h.annotatorId)
    return {
      ...h,
      source: sources.has(h.annotatorId),
      activeSeconds: own?.seconds ?? 0,
      labelled: own?.labelled ?? 0,
      timedLabels: own?.timed ?? 0,
    }
  })
  return {
    datasetId,
    dataset: dataset.name,
    schema: dataset.labelSchema.name,
    labels: t.labels,
    variants: inDatasetOrder(db, datasetId, t.variants),
    targets: t.ids.length,
    goldTargets: t.goldCount,
    seed,
    agreement: null,
    judges,
    humans,
    correlations,
    spreads,
    mcnemar: mcnemarRows,
    goldRefchecker: refcheckerFor(t, () => t.goldCode),
    refcheckerEval: refcheckerEvaluation(
      db,
      datasetId,
      t,
      runs.map((r) => ({ id: r.id, label: runLabel(r), columns: columns.get(r.id)! })),
      { ...boot, naRule: refcheckerNa },
    ),
    paretoFront: front(judges),
  }
}

/**
 * Runs on the Pareto front of cost per 1,000 judged targets against error rate, the chart's axes:
 * totals over different numbers of targets are not comparable. Runs without an error rate, with no
 * price (their cost is unknown) or answered wholly from the cache (they replayed another run's
 * answers, so their $0 is not the method's price) are left out.
 */
function front(judges: readonly JudgeMetrics[]): number[] {
  const rated = judges.filter(
    (j) =>
      j.errorRate !== null &&
      j.costPer1000 !== null &&
      !j.excluded &&
      !j.answeredFromCache &&
      !priceUnknown(j.costBasis, j.calls),
  )
  return paretoFront(rated.map((j) => ({ x: j.costPer1000!, y: j.errorRate! }))).map((i) => rated[i]!.runId)
}
