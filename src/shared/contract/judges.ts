import { z } from 'zod'
import { GENERATE_METHODS, JUDGE_METHODS } from '../domain'
import { ImportFormat } from '../importMapping'
import { baseUrlProblem, LLM_PROVIDERS, methodProblem } from '../judgeValidity'
import { NA_SCOPES } from '../naScope'
import { FileSource } from './datasets'
import { type CallDef, call } from './define'
import { BatchStatusInfo, CandidateVerdict, Rewrite, RunInfo } from './runs'
import { Viewer } from './viewer'

const Id = z.number().int().positive()
const None = z.object({})
const Ok = z.object({ ok: z.literal(true) })

export { LLM_PROVIDERS }
export const LlmProvider = z.enum(LLM_PROVIDERS)
export type LlmProvider = z.infer<typeof LlmProvider>

export const ModelCaps = z.object({
  tools: z.boolean(),
  forcedToolChoice: z.boolean(),
  strictSchema: z.boolean(),
  jsonMode: z.boolean(),
  /** `response_format: json_schema` (constrained decoding on vLLM, llama.cpp, Ollama, LM Studio). */
  jsonSchema: z.boolean().default(false),
  maxSchemaProperties: z.number().int().positive(),
  maxEnumValues: z.number().int().positive(),
})

export const ModelInfo = z.object({
  provider: LlmProvider,
  model: z.string().min(1),
  baseUrl: z.string(),
  capabilities: ModelCaps,
  priceInputPerMTok: z.number().nonnegative(),
  priceOutputPerMTok: z.number().nonnegative(),
  /** Fraction taken off both prices when the provider's batch API is used (half by default). */
  batchDiscount: z.number().min(0).max(1).default(0.5),
  /** Prices of prompt-cache reads and writes; null = the provider's usual ratio to the input price. */
  priceCacheReadPerMTok: z.number().nonnegative().nullable().default(null),
  priceCacheWritePerMTok: z.number().nonnegative().nullable().default(null),
})
export type ModelInfo = z.infer<typeof ModelInfo>

/** How a method asks the model and reads its replies; frozen into every run's config. */
export const MethodSettings = z.object({
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  parseMode: z.enum(['word-match', 'strict']).optional(),
  lexicalMetric: z.enum(['rouge1', 'rouge2', 'rougeL', 'overlap']).optional(),
  lexicalThreshold: z.number().min(0).max(1).optional(),
  /** Unicode words (default) or ASCII `[a-z0-9]+` lower-case tokens as the papers' scripts use. */
  lexicalTokens: z.enum(['unicode', 'ascii']).optional(),
  amcLlm: z.boolean().optional(),
  repairRetry: z.boolean().optional(),
  /** FaaF / batched checkers: one invalid argument makes the whole call N/A (`call`, default) or only itself. */
  naScope: z.enum(NA_SCOPES).optional(),
  /** Per-fact and per-triplet methods: let the provider cache the shared prompt prefix (default on). */
  promptCache: z.boolean().optional(),
})

/** Method settings plus how the run is paced; stored with a judge config and snapshotted per run. */
export const JudgeSettings = MethodSettings.extend({
  concurrency: z.number().int().min(1).max(256).optional(),
  rpm: z.number().positive().nullable().optional(),
  tpm: z.number().positive().nullable().optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxAttempts: z.number().int().min(1).max(10).optional(),
  cache: z.boolean().optional(),
})
export type JudgeSettings = z.infer<typeof JudgeSettings>

export const RUN_METHODS = [...JUDGE_METHODS, ...GENERATE_METHODS] as const

export const JudgeConfig = z.object({
  id: Id,
  name: z.string().min(1),
  provider: LlmProvider,
  model: z.string().min(1),
  baseUrl: z.string().nullable(),
  method: z.enum(RUN_METHODS),
  settings: JudgeSettings,
  createdAt: z.string(),
})
export type JudgeConfig = z.infer<typeof JudgeConfig>

/** A base URL every call would fail on (not http or https, not a URL) is refused at the boundary. */
function validBaseUrl(m: { baseUrl: string | null }, ctx: z.RefinementCtx): void {
  const problem = baseUrlProblem(m.baseUrl)
  if (problem) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: problem })
}

/** A config the chosen provider cannot run (say lexical with faaf-tfn) is refused here. */
export const JudgeConfigInput = JudgeConfig.omit({ id: true, createdAt: true })
  .extend({ id: Id.optional() })
  .superRefine((c, ctx) => {
    const problem = methodProblem(c.provider, c.method)
    if (problem) ctx.addIssue({ code: 'custom', path: ['method'], message: problem })
    validBaseUrl(c, ctx)
  })
export type JudgeConfigInput = z.infer<typeof JudgeConfigInput>

export const Template = z.object({
  id: Id,
  name: z.string(),
  version: z.number().int(),
  method: z.string(),
  system: z.string().optional(),
  user: z.string(),
  createdAt: z.string(),
})
export type Template = z.infer<typeof Template>

/** Which part of a dataset a run covers. Item bounds are item positions, inclusive. */
export const Slice = z.object({
  variants: z.array(z.string()).optional(),
  itemFrom: z.number().int().nonnegative().optional(),
  itemTo: z.number().int().nonnegative().optional(),
  /** At most this many candidates (or items, for per-item extraction). */
  limit: z.number().int().positive().optional(),
})

export const KeyStatus = z.object({
  /** Where keys come from: the OS keychain (desktop) or environment variables (browser mode). */
  source: z.enum(['safeStorage', 'env']),
  /** Desktop only: the keychain would keep the key in plain text; storing needs consent. */
  plainTextOnly: z.boolean(),
  providers: z.array(z.object({ provider: LlmProvider, hasKey: z.boolean(), envVar: z.string().nullable() })),
})
export type KeyStatus = z.infer<typeof KeyStatus>

export const PreviewCall = z.object({
  key: z.string(),
  request: z.unknown(),
  wire: z.record(z.string(), z.unknown()),
  /** How the reply's structure is obtained and why (tool-call, json-schema, json-mode, prompt, text). */
  path: z.object({
    kind: z.enum(['tool-call', 'json-schema', 'json-mode', 'prompt', 'text']),
    reason: z.string(),
  }),
  /** The template asks for a function call on a path with no tools (or for JSON on a tools path). */
  warning: z.string().nullable().default(null),
  /** What becomes of a reply with an invalid argument (FaaF and the batched checker), else null. */
  reading: z.string().nullable().default(null),
})
export const Preview = z.object({
  candidates: z.number().int(),
  targets: z.number().int(),
  calls: z.array(PreviewCall),
})
export type Preview = z.infer<typeof Preview>

const RunRef = z.object({ runId: Id })

/** Calls of the judges area. Names read `judges.verb`. */
export const judgesCalls = {
  'judges.keys': call(None, KeyStatus),
  'judges.setKey': call(
    z.object({ provider: LlmProvider, key: z.string().min(1), confirmPlainText: z.boolean().default(false) }),
    Ok,
  ),
  'judges.models': call(None, z.array(ModelInfo)),
  'judges.saveModel': call(ModelInfo.superRefine(validBaseUrl), ModelInfo),
  'judges.model': call(
    z.object({ provider: LlmProvider, model: z.string().min(1), baseUrl: z.string().default('') }),
    ModelInfo,
  ),
  /** Sends one tiny request per capability to the model's server and records what it honours. */
  'judges.detectModel': call(
    z
      .object({ provider: LlmProvider, model: z.string().min(1), baseUrl: z.string().default('') })
      .superRefine(validBaseUrl),
    z.object({
      model: ModelInfo,
      results: z.array(z.object({ capability: z.string(), honoured: z.boolean(), detail: z.string() })),
    }),
  ),
  'judges.configs': call(None, z.array(JudgeConfig)),
  'judges.saveConfig': call(JudgeConfigInput, JudgeConfig),
  'judges.templates': call(None, z.array(Template)),
  'judges.templateHistory': call(z.object({ name: z.string().min(1) }), z.array(Template)),
  'judges.saveTemplate': call(
    z.object({ name: z.string().min(1), system: z.string().optional(), user: z.string().min(1) }),
    Template,
  ),
  'judges.preview': call(z.object({ datasetId: Id, configId: Id, slice: Slice.default({}) }), Preview),
  'judges.start': call(
    z.object({
      datasetId: Id,
      configId: Id,
      slice: Slice.default({}),
      repeat: z.number().int().min(1).max(20).default(1),
      /** `batch`: the provider's batch API (OpenAI and Anthropic): about half price, results within 24 h. */
      mode: z.enum(['sync', 'batch']).default('sync'),
    }),
    z.object({ runIds: z.array(Id) }),
  ),
  /** A run's provider batches (ids, states, counts) and the cost it is heading for. */
  'judges.batches': call(RunRef, BatchStatusInfo),
  'judges.improve': call(
    z.object({ runId: Id, rounds: z.number().int().min(1).max(10).default(1) }),
    z.object({ runId: Id }),
  ),
  /** What improving a DCR run would do, said before it starts: rewrite calls, the new variants. */
  'judges.improvePlan': call(
    RunRef,
    z.object({
      candidates: z.number().int(),
      inconsistent: z.number().int(),
      unjudged: z.number().int(),
      variants: z.array(z.string()),
      /** Why nothing would be rewritten; null when something would. */
      nothing: z.string().nullable(),
    }),
  ),
  /**
   * A judge's verdicts made elsewhere (a released benchmark's model outputs) imported as one
   * finished run, as `factlab import-verdicts` does: all rows or none, unless bad rows are skipped.
   * Further files (`moreSources`) make one run per file, named from the file unless a model is
   * given, all imported or none.
   */
  'judges.importVerdicts': call(
    z.object({
      datasetId: Id,
      source: FileSource,
      moreSources: z.array(FileSource).max(500).default([]),
      /** The name each source (`source`, then `moreSources`) is known by, as in `datasets.import`. */
      pickedPaths: z.array(z.string().trim().min(1).max(4096)).max(501).optional(),
      format: ImportFormat.optional(),
      model: z.string().trim().min(1).max(200).optional(),
      method: z.string().trim().min(1).max(100).optional(),
      skipBadRows: z.boolean().default(false),
      /** How the file numbers units: 1 as `units list` shows them, 0 for older 0-based files (`--unit-base`). */
      unitBase: z.union([z.literal(0), z.literal(1)]).default(1),
    }),
    z.object({
      runId: Id,
      verdicts: z.number().int().nonnegative(),
      /** Of the verdicts, those that give none (N/A), as the run list counts them apart. */
      na: z.number().int().nonnegative().default(0),
      skipped: z.array(z.object({ at: z.string(), reason: z.string(), file: z.string().optional() })),
      /** Several files: each file's run, in the order given (runId, verdicts and na above: the first run's and the totals). */
      runs: z
        .array(
          z.object({
            file: z.string(),
            runId: Id,
            model: z.string(),
            verdicts: z.number().int(),
            na: z.number().int().default(0),
          }),
        )
        .optional(),
    }),
  ),
  'judges.runs': call(z.object({ datasetId: Id.optional() }), z.array(RunInfo)),
  'judges.pause': call(RunRef, Ok),
  'judges.cancel': call(RunRef, Ok),
  'judges.resume': call(
    RunRef.extend({
      /** Send the rest call by call or in a provider batch, whatever the run started as. */
      mode: z.enum(['sync', 'batch']).optional(),
      /** Batch mode: the first wait between status checks, in ms (it backs off from there). */
      batchPollMs: z.number().int().min(0).optional(),
    }),
    /** `note`: what leaving batch mode did (batches cancelled, requests going call by call). */
    Ok.extend({ note: z.string().optional() }),
  ),
  'judges.rewrites': call(z.object({ datasetId: Id }), z.array(Rewrite)),
  /** While blind (`viewer`), verdicts on targets the viewer has not labelled stay out. */
  'judges.candidateVerdicts': call(
    z.object({ candidateId: Id, viewer: Viewer.optional() }),
    z.array(CandidateVerdict),
  ),
} satisfies Record<string, CallDef>
