import { z } from 'zod'
import { MethodSettings, ModelCaps, Slice } from '../../shared/contract/judges'
import { PROVIDER_NAMES } from '../providers/client'

export const MethodSettingsSchema = z.looseObject(MethodSettings.shape)

export const TemplateSnapshot = z.object({
  version: z.number().int(),
  system: z.string().optional(),
  user: z.string(),
})

/** Everything a run needs, frozen when it is created: editing a judge config later changes nothing. */
export const RunConfig = z.object({
  provider: z.enum(PROVIDER_NAMES),
  model: z.string().min(1),
  baseUrl: z.string().nullable().default(null),
  method: z.string().min(1),
  settings: MethodSettingsSchema.default({}),
  templates: z.record(z.string(), TemplateSnapshot).default({}),
  capabilities: ModelCaps,
  prices: z.object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    /** Fraction off at batch price; cache prices per million tokens (null = ratio × input). */
    batchDiscount: z.number().min(0).max(1).default(0.5),
    cacheRead: z.number().nonnegative().nullable().default(null),
    cacheWrite: z.number().nonnegative().nullable().default(null),
    cacheReadRatio: z.number().nonnegative().default(1),
    cacheWriteRatio: z.number().nonnegative().default(1),
  }),
  /** `batch`: the provider's batch API (about half price, results within 24 h); `sync`: call by call. */
  mode: z.enum(['sync', 'batch']).default('sync'),
  concurrency: z.number().int().min(1).max(256).default(4),
  /** Requests and tokens per minute; null = no limit. */
  rpm: z.number().positive().nullable().default(null),
  tpm: z.number().positive().nullable().default(null),
  timeoutMs: z.number().int().positive().default(60_000),
  /** Transport attempts per call (1 = no retry). Format failures are never retried here. */
  maxAttempts: z.number().int().min(1).max(10).default(4),
  backoffMs: z.number().nonnegative().default(1_000),
  cache: z.boolean().default(true),
  /** improve runs: the DCR run whose verdicts are improved, and how many rounds. */
  sourceRunId: z.number().int().optional(),
  rounds: z.number().int().min(1).max(10).optional(),
})
export type RunConfig = z.infer<typeof RunConfig>
export type RunConfigInput = z.input<typeof RunConfig>

/** A person's slice, plus what only the app itself narrows a run to. */
export const RunSlice = Slice.extend({
  /** Only these candidates (used by RAI re-evaluation). */
  candidateIds: z.array(z.number().int()).optional(),
})
export type RunSlice = z.infer<typeof RunSlice>

export const RUN_KINDS = ['judge', 'extract', 'improve'] as const
export type RunKind = (typeof RUN_KINDS)[number]
