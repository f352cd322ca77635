import { z } from 'zod'
import { REFCHECKER_NA_RULES } from '../refcheckerNa'
import { AgreementFigures, CohenPair, SourceAgreement } from './agreement'
import { CostSplit, NO_SPLIT } from './costSplit'
import { call } from './define'
import { ItemLevel } from './itemLevel'
import { RefcheckerEval } from './refchecker'
import { Viewer } from './viewer'

/** Shapes of the metrics area; the service builds exactly these, the Compare view reads them. */

const Rate = z.number().nullable()
export const Interval = z.tuple([z.number(), z.number()]).nullable()
/** ER and F1 over many candidates may take the cluster-robust normal interval (shared/smallSample.ts). */
const RateCiMethod = z.enum(['bootstrap', 'wilson', 'cluster-robust']).nullable()

const ClassScores = z.object({ precision: Rate, recall: Rate, f1: Rate })

export const Figures = z.object({
  /** Targets with both a verdict (status ok) and gold. */
  n: z.number().int(),
  /** Verdict rows of any status (N/A and transport-error rates are shares of these). */
  judged: z.number().int(),
  na: z.number().int(),
  errors: z.number().int(),
  naRate: Rate,
  transportErrorRate: Rate,
  errorRate: Rate,
  errorRateCi: Interval,
  accuracy: Rate,
  f1Unsupported: Rate,
  f1Ci: Interval,
  kappa: Rate,
  /** How each interval was made: seeded bootstrap, Wilson's where the bootstrap degenerates or is the wider, or cluster-robust over many candidates. */
  errorRateCiMethod: RateCiMethod,
  f1CiMethod: RateCiMethod,
})
export type Figures = z.infer<typeof Figures>

export const Confusion = z.object({
  /** rows gold, columns judge: [supported, unsupported] */
  binary: z.array(z.array(z.number().int())),
  /** the schema's own label space, same orientation */
  labels: z.array(z.string()),
  full: z.array(z.array(z.number().int())),
})

export const Distribution = z.object({
  entailment: z.number(),
  neutral: z.number(),
  contradiction: z.number(),
})

export const JudgeMetrics = Figures.extend({
  runId: z.number().int(),
  label: z.string(),
  provider: z.string(),
  model: z.string(),
  method: z.string(),
  status: z.string(),
  repeatIndex: z.number().int(),
  /** What the run ran (provider, model, method, settings, template versions), from its frozen config. */
  configKey: z.string(),
  /** Why this run is left out of charts, McNemar and the default confusion matrix; null if it is not. */
  excluded: z.string().nullable(),
  perClass: z.object({ supported: ClassScores, unsupported: ClassScores }),
  confusion: Confusion,
  byVariant: z.record(z.string(), Figures),
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** Of the prompt tokens, those read from and written to the provider's prompt cache (priced apart). */
  cacheReadTokens: z.number().int().default(0),
  cacheWriteTokens: z.number().int().default(0),
  cost: z.number(),
  /** The tokens by the price each was paid at, with their money (shared/costSplit.ts). */
  costSplit: CostSplit.default(NO_SPLIT),
  wallSeconds: z.number().nullable(),
  latencyP50: z.number().nullable(),
  latencyP95: z.number().nullable(),
  /** Of `calls`, those answered through a provider batch, at the batch price (shared/runNames.ts). */
  batchCalls: z.number().int().default(0),
  /** How the run was made to go: call by call (`sync`) or through the provider's batch API. */
  mode: z.enum(['sync', 'batch']).default('sync'),
  /**
   * Where `cost` comes from: `run`, the prices the run was created with; `model`, the run had none
   * and is priced with its model's prices entered since; `none`, no price then or now.
   */
  costBasis: z.enum(['run', 'model', 'none']).default('run'),
  /** cost / targets given a verdict × 1000 (N/A and transport errors not counted); null with none (judgeRates.ts). */
  costPer1000: z.number().nullable().default(null),
  /** What those 1,000 are: facts for fact methods (FaaF, Prompt(T/F)), targets otherwise. */
  costUnit: z.enum(['facts', 'targets']).default('targets'),
  /** Every answer came from the response cache: no call, no money, but a replay of another run. */
  answeredFromCache: z.boolean().default(false),
  refchecker: Distribution.nullable(),
  rai: z.array(
    z.object({
      round: z.number().int(),
      inconsistent: z.number().int(),
      corrected: z.number().int(),
      rate: Rate,
      /** 95% Wilson interval of `rate` over the `inconsistent` candidates; null with none. */
      rateCi: Interval.default(null),
      /** Of `inconsistent`, those with no rewrite (it failed) and those whose rewrite got no verdict: not corrected. */
      failed: z.number().int().default(0),
      unscored: z.number().int().default(0),
      /** Originals found inconsistent, those corrected by this round, and the share: the paper's multi-round curve. */
      originals: z.number().int().default(0),
      correctedSoFar: z.number().int().default(0),
      cumulativeRate: Rate.default(null),
      cumulativeCi: Interval.default(null),
    }),
  ),
})
export type JudgeMetrics = z.infer<typeof JudgeMetrics>

export const HumanMetrics = Figures.extend({
  annotatorId: z.number().int(),
  annotator: z.string(),
  /** The dataset's own reference labels (MRPC quality…), scored like a person. */
  source: z.boolean(),
  byVariant: z.record(z.string(), Figures),
  /** Active seconds recorded on this person's labels of the targets the judges are scored on. */
  activeSeconds: z.number().optional(),
  /** How many of those targets this person labelled. */
  labelled: z.number().int().optional(),
  /** How many of those labels carry a time (CLI, file and bundle labels carry none). */
  timedLabels: z.number().int().optional(),
  /**
   * The person's own active hours on those targets × their hourly rate (null without a rate or
   * without recorded time), and that cost per 1,000 of the timed labels the hours were spent on.
   */
  cost: z.number().nullable().optional(),
  costPer1000: z.number().nullable().optional(),
})
export type HumanMetrics = z.infer<typeof HumanMetrics>

export const CorrelationRow = z.object({
  runId: z.number().int(),
  label: z.string(),
  /** target: per-target scores; candidate: DCR score per candidate. */
  level: z.enum(['target', 'candidate']),
  /** what the human side is: numeric scores or binary gold (1 = supported) */
  against: z.enum(['numeric', 'binary']),
  n: z.number().int(),
  pearson: Rate,
  spearman: Rate,
  kendallTauB: Rate,
  auroc: Rate,
  /** How numeric human scores were split for AUROC (at or above = positive); null when 0/1 already. */
  aurocCut: z.object({ threshold: z.number(), source: z.enum(['schema', 'midpoint']) }).nullable(),
})
export type CorrelationRow = z.infer<typeof CorrelationRow>

const AgreementSummary = AgreementFigures

export const DatasetAgreement = AgreementSummary.extend({
  /** Pairs of people: the overall figures are theirs alone. */
  cohenPairs: z.array(CohenPair),
  /** Pairs with a source (the dataset's own reference labels), person–source first: shown apart. */
  sourcePairs: z.array(CohenPair),
  /** The release's annotators among themselves (null with fewer than two sources). */
  amongSources: SourceAgreement.nullable(),
  byVariant: z.record(z.string(), AgreementSummary),
  /** κ and α over fewer shared targets than this get no strength word. */
  minSharedTargets: z.number().int(),
})

/**
 * Spread of the error rate over repeats: runs of one config in one mode. A batch run and a
 * synchronous run of the same config are mode variants, never repeats of each other, so each
 * mode has its own row; `runIds` names exactly the runs the figure is made of.
 */
export const SpreadRow = z.object({
  configKey: z.string(),
  mode: z.enum(['sync', 'batch']),
  label: z.string(),
  runIds: z.array(z.number().int()),
  /** Runs of this config answered wholly from the response cache: replays, left out of the figure. */
  replays: z.array(z.number().int()).default([]),
  errorRate: z
    .object({
      runs: z.number().int(),
      mean: z.number(),
      sd: z.number().nullable(),
      min: z.number(),
      max: z.number(),
    })
    .nullable(),
})

/** The runs a spread is made of, and the replays it leaves out, as Compare and reports show them. */
export function spreadRunsWords(s: { runIds: readonly number[]; replays?: readonly number[] }): string {
  const runs = s.runIds.map((r) => `#${r}`).join(' ')
  const left = s.replays ?? []
  if (left.length === 0) return runs
  const names = left.map((r) => `#${r}`).join(' ')
  return `${runs} (left out: ${names}, its replies all reused from an earlier run: a replay, not a repeat)`
}

export const McNemarRow = z.object({
  a: z.number().int(),
  b: z.number().int(),
  n: z.number().int(),
  aOnly: z.number().int(),
  bOnly: z.number().int(),
  pValue: z.number(),
})
export type McNemarRow = z.infer<typeof McNemarRow>

export const DatasetMetrics = z.object({
  datasetId: z.number().int(),
  dataset: z.string(),
  schema: z.string(),
  labels: z.array(z.string()),
  variants: z.array(z.string()),
  targets: z.number().int(),
  goldTargets: z.number().int(),
  seed: z.number().int(),
  agreement: DatasetAgreement,
  judges: z.array(JudgeMetrics),
  humans: z.array(HumanMetrics),
  correlations: z.array(CorrelationRow),
  spreads: z.array(SpreadRow),
  mcnemar: z.array(McNemarRow),
  goldRefchecker: Distribution.nullable(),
  /** RefChecker's whole evaluation (triplet datasets with the RefChecker schema), else null. */
  refcheckerEval: RefcheckerEval.nullable().optional(),
  /** Runs no other run beats on both cost and error rate. */
  paretoFront: z.array(z.number().int()),
  /**
   * Item-level scores and correlations (contract/itemLevel.ts): in reports and `metrics --json`.
   * The Compare view loads them apart, with `metrics.itemLevel`, as their bootstrap takes longer.
   */
  itemLevel: ItemLevel.optional(),
})
export type DatasetMetrics = z.infer<typeof DatasetMetrics>

export const Disagreement = z.object({
  targetId: z.number().int(),
  itemId: z.number().int(),
  extId: z.string(),
  variant: z.string(),
  unitText: z.string(),
  gold: z.string(),
  runId: z.number().int(),
  judge: z.string(),
  verdict: z.string(),
})
export type Disagreement = z.infer<typeof Disagreement>

export const LabelNextRow = z.object({
  targetId: z.number().int(),
  itemId: z.number().int(),
  extId: z.string(),
  variant: z.string(),
  unitText: z.string(),
  /** Judges with a verdict on the target, and the share of them saying unsupported. */
  judges: z.number().int(),
  unsupportedShare: z.number(),
  /** 4·p·(1−p): 1 when the judges split evenly, 0 when they all agree. */
  disagreement: z.number(),
})
export type LabelNextRow = z.infer<typeof LabelNextRow>

/** How one judge's ER interval narrowed as gold accrued, in the order gold was labelled. */
export const NarrowingSeries = z.object({
  runId: z.number().int(),
  label: z.string(),
  points: z.array(z.object({ gold: z.number().int(), n: z.number().int(), width: z.number().nullable() })),
})
export type NarrowingSeries = z.infer<typeof NarrowingSeries>

const DatasetInput = z.object({ datasetId: z.number().int().positive() })

/** Calls of the metrics area. Names read `metrics.verb`. */
export const metricsCalls = {
  'metrics.compare': call(
    DatasetInput.extend({
      seed: z.number().int().optional(),
      replicates: z.number().int().min(0).max(10000).optional(),
      /** Count control items (annotation projects) too; left out unless asked. */
      includeControls: z.boolean().optional(),
      /** RefChecker: a checker N/A counts as Neutral (default, as its benchmark) or is left out. */
      refcheckerNa: z.enum(REFCHECKER_NA_RULES).optional(),
    }),
    DatasetMetrics,
  ),
  /** Item-level scores and correlations (slower than `metrics.compare`: a bootstrap over items). */
  'metrics.itemLevel': call(
    DatasetInput.extend({
      seed: z.number().int().optional(),
      replicates: z.number().int().min(0).max(10000).optional(),
    }),
    ItemLevel,
  ),
  'metrics.disagreements': call(
    DatasetInput.extend({
      runId: z.number().int().nullable().default(null),
      variant: z.string().nullable().default(null),
      limit: z.number().int().min(1).max(5000).default(200),
      /** While blind, only targets the viewer labelled are listed. */
      viewer: Viewer.optional(),
    }),
    z.object({
      total: z.number().int(),
      rows: z.array(Disagreement),
      /** Disagreements on targets blind mode keeps from the viewer (not in `total`). */
      hidden: z.number().int(),
    }),
  ),
  'metrics.labelNext': call(
    DatasetInput.extend({ limit: z.number().int().min(1).max(1000).default(50), viewer: Viewer.optional() }),
    z.object({ queue: z.array(LabelNextRow), narrowing: z.array(NarrowingSeries) }),
  ),
  'metrics.report': call(
    DatasetInput.extend({ format: z.enum(['md', 'html', 'csv', 'json']) }),
    z.object({ fileName: z.string(), mime: z.string(), text: z.string() }),
  ),
}

/*
 * Number formatting shared by the reports and the Compare view, so both print the same
 * strings for the same figures. A figure that is not defined reads "not defined", never NaN.
 */
export const NOT_DEFINED = 'not defined'

export function fmtPct(x: number | null | undefined, digits = 1): string {
  return x == null || !Number.isFinite(x) ? NOT_DEFINED : `${(x * 100).toFixed(digits)}%`
}

export function fmtNum(x: number | null | undefined, digits = 3): string {
  return x == null || !Number.isFinite(x) ? NOT_DEFINED : x.toFixed(digits)
}

export function fmtCi(iv: readonly [number, number] | null | undefined, digits = 1): string {
  return iv == null ? '' : `${(iv[0] * 100).toFixed(digits)}–${(iv[1] * 100).toFixed(digits)}%`
}

export function fmtPctCi(
  x: number | null | undefined,
  iv: readonly [number, number] | null | undefined,
): string {
  return x == null ? NOT_DEFINED : iv == null ? fmtPct(x) : `${fmtPct(x)} [${fmtCi(iv)}]`
}

export function fmtMoney(x: number): string {
  return `$${x.toFixed(x < 1 ? 4 : 2)}`
}

export function fmtP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3)
}
