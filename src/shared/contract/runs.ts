import { z } from 'zod'
import { RunStatus, VerdictStatus } from '../domain'
import { CostSplit, NO_SPLIT } from './costSplit'

/** What the app says about a judge run: its counts, cost, drivers, provider batches and verdicts. */

const Id = z.number().int().positive()

/** Which kind of FactLab process drives a run. */
export const RUN_DRIVERS = ['app', 'browser', 'cli', 'other'] as const
export type RunDriver = (typeof RUN_DRIVERS)[number]

/** Another process driving a run (the lease it holds in the workspace). */
export const RunHolder = z.object({
  driver: z.enum(RUN_DRIVERS),
  pid: z.number().int(),
  host: z.string(),
  since: z.string(),
  /** The sentence a second driver is refused with. */
  message: z.string(),
})
export type RunHolder = z.infer<typeof RunHolder>

export const CostBasis = z.enum(['run', 'model', 'none']).default('run')

export const RunInfo = z.object({
  id: Id,
  kind: z.string(),
  datasetId: Id,
  provider: z.string(),
  model: z.string(),
  method: z.string(),
  repeatIndex: z.number().int(),
  status: RunStatus,
  /** False for a run left `running` by a process that is gone: it can be resumed. */
  active: z.boolean(),
  error: z.string().nullable(),
  createdAt: z.string(),
  total: z.number().int(),
  /** The calls the run plans (repair retries come on top); null before its first start. */
  totalCalls: z.number().int().nullable().default(null),
  /** Calls the provider answered; cache hits and calls that failed after their retries apart. */
  calls: z.number().int(),
  cached: z.number().int(),
  callErrors: z.number().int().default(0),
  verdicts: z.number().int(),
  na: z.number().int(),
  errors: z.number().int(),
  /** Failed targets by class of failure (timeout, rate limit, …), most frequent first. */
  errorClasses: z.array(z.object({ name: z.string(), count: z.number().int() })),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** Prompt tokens read from / written to the provider's prompt cache (priced apart). */
  cacheReadTokens: z.number().int().default(0),
  cacheWriteTokens: z.number().int().default(0),
  /** The tokens by the price each was paid at, with their money (shared/costSplit.ts). */
  costSplit: CostSplit.default(NO_SPLIT),
  cost: z.number(),
  /**
   * Where the cost comes from: `run`, the prices the run was created with; `model`, the run had
   * none and is priced with its model's prices entered since; `none`, no price then or now.
   */
  costBasis: CostBasis,
  /** `batch`: the run goes through the provider's batch API now (it may have gone otherwise before). */
  mode: z.enum(['sync', 'batch']).default('sync'),
  /** Of `calls`, those answered through a provider batch, at the batch price (shared/runNames.ts). */
  batchCalls: z.number().int().default(0),
  templates: z.record(z.string(), z.number().int()),
  /** Set while another live process drives the run: Resume would be refused. */
  heldBy: RunHolder.nullable(),
  /** The last time a vanished or silent driver's claim was taken over, in words. */
  takeover: z.string().nullable(),
})
export type RunInfo = z.infer<typeof RunInfo>

export const Rewrite = z.object({
  itemId: Id,
  extId: z.string(),
  original: z.object({ candidateId: Id, variant: z.string(), text: z.string() }),
  rewrite: z.object({ candidateId: Id, variant: z.string(), text: z.string() }),
})
export type Rewrite = z.infer<typeof Rewrite>

export const CandidateVerdict = z.object({
  runId: Id,
  method: z.string(),
  model: z.string(),
  targetId: Id,
  unitId: Id,
  status: VerdictStatus,
  verdict: z.string().nullable(),
  score: z.number().nullable(),
  reason: z.string().nullable(),
  citation: z.string().nullable(),
  problem: z.string().nullable(),
})
export type CandidateVerdict = z.infer<typeof CandidateVerdict>

export const BatchInfo = z.object({
  id: Id,
  providerBatchId: z.string().nullable(),
  state: z.enum(['preparing', 'uploaded', 'submitting', 'submitted', 'ended', 'ingested']),
  providerStatus: z.string().nullable(),
  requests: z.number().int(),
  succeeded: z.number().int(),
  errored: z.number().int(),
  processing: z.number().int(),
  /** Requests the batch did not answer (cancelled, failed) whose call was answered call by call since. */
  answeredSince: z.number().int().default(0),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  error: z.string().nullable(),
})
export const BatchStatusInfo = z.object({
  runId: Id,
  mode: z.enum(['sync', 'batch']),
  status: z.string(),
  batches: z.array(BatchInfo),
  waiting: z.number().int(),
  cost: z.number(),
  /** Where `cost` comes from, as RunInfo's: `none` with calls made is an unknown cost, not $0. */
  costBasis: CostBasis,
  /**
   * The cost so far plus the calls left, each priced as a made call is; `expectedBasis` says on
   * what. Null where calls are left and no price is known: their cost is unknown, not $0.
   */
  expectedCost: z.number().nullable(),
  expectedBasis: z.string().default(''),
  /** Set while a run under way was taken over from a vanished or silent driver; null once it finished. */
  takeover: z.string().nullable().default(null),
  /** Which template versions every call of the run sends, and whether they were edited since. */
  templates: z.string().nullable().default(null),
  /** Calls made so far (answered, from the cache or failed) and the calls the run plans (null before its first start). */
  callsMade: z.number().int().default(0),
  totalCalls: z.number().int().nullable().default(null),
  /** The run summary's own counts (as the Judges view and export-verdicts give them). */
  calls: z.number().int().default(0),
  cached: z.number().int().default(0),
  callErrors: z.number().int().default(0),
  /** Of `calls`, those answered through a provider batch, at the batch price. */
  batchCalls: z.number().int().default(0),
  /** Tokens of calls the provider answered (those from the cache cost nothing and are left out). */
  promptTokens: z.number().int().default(0),
  completionTokens: z.number().int().default(0),
  /** The cost so far by the price each token was paid at (shared/costSplit.ts). */
  costSplit: CostSplit.default(NO_SPLIT),
})
export type BatchStatusInfo = z.infer<typeof BatchStatusInfo>
