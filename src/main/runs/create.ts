import { GENERATE_METHODS, JUDGE_METHODS } from '../../shared/domain'
import {
  baseUrlProblem,
  LLM_PROVIDERS,
  type LlmProviderName,
  methodProblem,
  type RunMethodName,
} from '../../shared/judgeValidity'
import { UNIT_KINDS, type UnitKind } from '../../shared/labelSchemas'
import { DEFAULT_NA_SCOPE, NA_SCOPE_METHODS } from '../../shared/naScope'
import { ServiceError } from '../app/errors'
import { METHODS } from '../judges/registry'
import { schemaFit } from '../judges/schemaFit'
import type { JudgeMethodImpl } from '../judges/types'
import { templateSnapshot } from '../prompts/store'
import type { ProviderName } from '../providers/client'
import { getModel } from '../providers/models'
import type { ModelCapabilities } from '../providers/types'
import type { Db } from '../store/connection'
import { datasetVariants, datasetVisible, getDataset } from '../store/repos/datasets'
import { RunConfig, type RunKind, RunSlice } from './config'
import { pricesOf } from './pricing'
import { insertRun, type RunRecord } from './repo'
import { unitKindsPresent } from './tasks'
import { unitFitProblem } from './unitFit'

/** What a person chooses for a run; the rest (templates, capabilities, prices) is snapshotted. */
export interface RunRequest {
  kind?: RunKind
  datasetId: number
  judgeConfigId?: number | null
  provider: ProviderName
  model: string
  baseUrl?: string | null
  method: string
  settings?: Record<string, unknown>
  concurrency?: number
  rpm?: number | null
  tpm?: number | null
  timeoutMs?: number
  maxAttempts?: number
  backoffMs?: number
  cache?: boolean
  sourceRunId?: number
  rounds?: number
  slice?: RunSlice
  /** `batch` sends the run through the provider's batch API (OpenAI and Anthropic only). */
  mode?: 'sync' | 'batch'
  /** Capabilities for this run only, over the model's recorded ones (`--capabilities`). */
  capabilities?: Partial<ModelCapabilities>
}

/** The frozen config of a run: current templates, the model's capabilities and its prices. */
export function snapshotConfig(db: Db, r: RunRequest): RunConfig {
  if (r.mode === 'batch' && r.provider !== 'openai' && r.provider !== 'anthropic')
    throw new Error(`Batch mode is for openai and anthropic; ${r.provider} runs call by call`)
  // Configs saved before this check existed, and CLI flags, meet the same rule as the contract.
  if ((LLM_PROVIDERS as readonly string[]).includes(r.provider) && isRunMethod(r.method)) {
    const problem = methodProblem(r.provider as LlmProviderName, r.method)
    if (problem) throw new Error(problem)
  }
  if (r.provider === 'openai-compatible' && !r.baseUrl?.trim())
    throw new Error('openai-compatible needs a base URL (for example http://localhost:11434/v1)')
  // Every call of the run would fail on it ("Invalid URL"), each one stored as a failure.
  const badUrl = baseUrlProblem(r.baseUrl)
  if (badUrl) throw new ServiceError('bad_input', badUrl)
  if ((r.kind ?? 'judge') === 'judge') {
    const fit = schemaFit(r.method, getDataset(db, r.datasetId).labelSchema)
    if (!fit.ok) throw new Error(`This method cannot answer in the dataset's label schema: ${fit.reason}`)
  }
  const model = getModel(db, r.provider, r.model, r.baseUrl ?? null)
  return RunConfig.parse({
    provider: r.provider,
    model: r.model,
    baseUrl: r.baseUrl ?? null,
    method: r.method,
    settings: frozenSettings(r.method, r.settings ?? {}),
    templates: templateSnapshot(db),
    capabilities: { ...model.capabilities, ...r.capabilities },
    prices: pricesOf(model),
    ...(r.mode !== undefined ? { mode: r.mode } : {}),
    ...(r.concurrency !== undefined ? { concurrency: r.concurrency } : {}),
    ...(r.rpm !== undefined ? { rpm: r.rpm } : {}),
    ...(r.tpm !== undefined ? { tpm: r.tpm } : {}),
    ...(r.timeoutMs !== undefined ? { timeoutMs: r.timeoutMs } : {}),
    ...(r.maxAttempts !== undefined ? { maxAttempts: r.maxAttempts } : {}),
    ...(r.backoffMs !== undefined ? { backoffMs: r.backoffMs } : {}),
    ...(r.cache !== undefined ? { cache: r.cache } : {}),
    ...(r.sourceRunId !== undefined ? { sourceRunId: r.sourceRunId } : {}),
    ...(r.rounds !== undefined ? { rounds: r.rounds } : {}),
  })
}

/**
 * The rule for invalid arguments is written into the run even when it is the default, so the
 * run says which one read its replies, and runs read by either rule are never grouped together.
 */
function frozenSettings(method: string, settings: Record<string, unknown>): Record<string, unknown> {
  if (!NA_SCOPE_METHODS.includes(method)) return settings
  return { ...settings, naScope: settings.naScope ?? DEFAULT_NA_SCOPE }
}

/**
 * A slice naming a variant the dataset lacks would judge nothing and still end "done": refused
 * before any run exists, whoever asks (the Judges view, `factlab call`, a script).
 */
function refuseUnknownVariants(db: Db, datasetId: number, variants: readonly string[]): void {
  if (variants.length === 0) return
  const known = datasetVariants(db, datasetId)
  const unknown = variants.filter((v) => !known.includes(v))
  if (unknown.length > 0)
    throw new ServiceError(
      'bad_input',
      `This dataset has no variant ${unknown.map((v) => `“${v}”`).join(', ')} (it has ${known.map((v) => `“${v}”`).join(', ') || 'none'}); no run was created`,
    )
}

/**
 * Why a judge method has nothing to judge in the dataset (or the slice), or null: asked at run
 * creation (nothing is stored then), by the preview, and by the engine at start, since units can
 * be deleted between creation and start.
 */
export function missingUnits(
  db: Db,
  datasetId: number,
  method: string,
  needs: readonly UnitKind[],
  slice: RunSlice,
  outcome = 'no run was created',
): string | null {
  const inSlice = unitKindsPresent(db, datasetId, needs, slice)
  if (inSlice.length > 0) return null
  const sliced =
    Boolean(slice.variants?.length) ||
    Boolean(slice.candidateIds?.length) ||
    slice.itemFrom !== undefined ||
    slice.itemTo !== undefined
  return unitFitProblem({
    method,
    needs,
    inSlice,
    inDataset: unitKindsPresent(db, datasetId, UNIT_KINDS, {}),
    sliced,
    outcome,
  })
}

/**
 * Creates `repeat` queued runs of one config (repeat_index 0..K-1) so run-to-run variance can
 * be reported; repeats beyond the first do not share cached replies (see requestHash).
 */
export function createRuns(db: Db, r: RunRequest, repeat = 1): number[] {
  if (!datasetVisible(db, r.datasetId)) throw new Error(`No dataset with id ${r.datasetId}`)
  const config = snapshotConfig(db, r)
  const slice = RunSlice.parse(r.slice ?? {})
  refuseUnknownVariants(db, r.datasetId, slice.variants ?? [])
  // A method the product does not know (a test's own registry) is checked by the engine at start.
  const judge =
    (r.kind ?? 'judge') === 'judge'
      ? (METHODS as Partial<Record<string, JudgeMethodImpl>>)[r.method]
      : undefined
  const missing = judge && missingUnits(db, r.datasetId, r.method, judge.unitKinds, slice)
  if (missing) throw new ServiceError('bad_input', missing)
  return db.transaction(() =>
    Array.from({ length: Math.max(1, repeat) }, (_, i) =>
      insertRun(db, {
        kind: r.kind ?? 'judge',
        datasetId: r.datasetId,
        judgeConfigId: r.judgeConfigId ?? null,
        config,
        slice,
        repeatIndex: i,
      }),
    ),
  )()
}

/**
 * An improvement (RAI) run on a DCR run: the same model, settings and pacing, so rewrites are
 * judged exactly as the originals were. Checking that the source is a DCR run is the caller's job.
 */
export function improveRequest(source: RunRecord, rounds: number): RunRequest {
  const c = source.config
  return {
    kind: 'improve',
    datasetId: source.datasetId,
    provider: c.provider,
    model: c.model,
    baseUrl: c.baseUrl,
    method: 'dcr',
    settings: c.settings,
    concurrency: c.concurrency,
    timeoutMs: c.timeoutMs,
    maxAttempts: c.maxAttempts,
    sourceRunId: source.id,
    rounds,
  }
}

function isRunMethod(m: string): m is RunMethodName {
  return (
    (JUDGE_METHODS as readonly string[]).includes(m) || (GENERATE_METHODS as readonly string[]).includes(m)
  )
}
