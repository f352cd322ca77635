import type { Command } from 'commander'
import { baseUrlProblem } from '../../../shared/judgeValidity'
import { NA_SCOPE_LABELS, NA_SCOPES, type NaScope } from '../../../shared/naScope'
import type { Workspace } from '../../app/workspace'
import { CAPABILITY_NAMES, parseCapabilityList } from '../../providers/capabilityNames'
import { PROVIDER_NAMES, type ProviderName } from '../../providers/client'
import { missingKey } from '../../providers/keys'
import type { RunRequest } from '../../runs/create'
import { listDatasets } from '../../store/repos/datasets'
import { pickDataset } from '../datasetKey'
import { CliError, EXIT, parseAtLeastOne } from '../util'
import { variantsOf } from './judgeChecks'

/*
 * The flags that name a provider, a model and a run's limits, read and checked the same way by
 * `judge run`, `judge preview`, `units generate` and `models probe`.
 */

export interface CommonFlags {
  workspace?: string
  json?: boolean
}

export interface ProviderFlags extends CommonFlags {
  dataset: string
  provider: string
  model: string
  baseUrl?: string
  concurrency?: string
  rpm?: string
  tpm?: string
  timeout?: string
  maxAttempts?: string
  cache?: boolean
  limit?: string
  variants?: string
  capabilities?: string
}

export function providerOf(raw: string): ProviderName {
  const found = PROVIDER_NAMES.find((p) => p === raw)
  if (!found)
    throw new CliError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got "${raw}"`, EXIT.usage)
  return found
}

/** `--base-url` as given, refused before anything is stored when no call could reach it. */
export function baseUrlFlag(raw: string | undefined): string | undefined {
  const problem = baseUrlProblem(raw)
  if (problem) throw new CliError(`--base-url: ${problem}`, EXIT.usage)
  return raw
}

/** The run request shared by `judge run`, `judge preview` and `units generate`. */
export function requestFromFlags(ws: Workspace, f: ProviderFlags, method: string): RunRequest {
  const datasets = listDatasets(ws.db)
  const datasetId = pickDataset(datasets, f.dataset)
  const datasetName = datasets.find((d) => d.id === datasetId)?.name ?? f.dataset
  const variants = f.variants === undefined ? undefined : variantsOf(ws, datasetId, datasetName, f.variants)
  const noKey = missingKey(providerOf(f.provider))
  if (noKey) throw new CliError(noKey)
  const num = (name: string, raw: string | undefined) => parseAtLeastOne(name, raw)
  const concurrency = num('--concurrency', f.concurrency)
  const rpm = num('--rpm', f.rpm)
  const tpm = num('--tpm', f.tpm)
  const timeoutMs = num('--timeout', f.timeout)
  const maxAttempts = num('--max-attempts', f.maxAttempts)
  const limit = num('--limit', f.limit)
  let capabilities: RunRequest['capabilities']
  try {
    capabilities = f.capabilities === undefined ? undefined : parseCapabilityList(f.capabilities)
  } catch (error) {
    throw new CliError(`--capabilities: ${(error as Error).message}`, EXIT.usage)
  }
  return {
    datasetId,
    provider: providerOf(f.provider),
    model: f.model,
    baseUrl: baseUrlFlag(f.baseUrl) ?? null,
    method,
    // Only an absent flag takes the default: every value given was checked to be at least 1.
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(rpm !== undefined ? { rpm } : {}),
    ...(tpm !== undefined ? { tpm } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
    ...(f.cache === false ? { cache: false } : {}),
    ...(capabilities ? { capabilities } : {}),
    slice: {
      ...(limit !== undefined ? { limit } : {}),
      ...(variants !== undefined ? { variants } : {}),
    },
  }
}

export function withProviderOptions(cmd: Command): Command {
  return cmd
    .option('--workspace <db>', 'workspace file')
    .requiredOption('--dataset <name>', 'dataset to work on')
    .requiredOption('--provider <name>', PROVIDER_NAMES.join(', '))
    .requiredOption('--model <name>', 'model name as the provider knows it')
    .option('--base-url <url>', 'server URL (required for openai-compatible, e.g. http://localhost:11434/v1)')
    .option('--concurrency <n>', 'calls in flight at once (default 4)')
    .option('--rpm <n>', 'requests per minute limit')
    .option('--tpm <n>', 'tokens per minute limit')
    .option('--timeout <ms>', 'per-call timeout in milliseconds (default 60000)')
    .option('--max-attempts <n>', 'transport attempts per call, retries included (default 4)')
    .option(
      '--no-cache',
      'send every call, even where a reply to an identical request is held (the provider’s prompt cache is another thing, unaffected)',
    )
    .option('--limit <n>', 'at most this many candidates (items for per-item jobs)')
    .option('--variants <list>', 'only these candidate variants, comma-separated')
    .option(
      '--capabilities <list>',
      `what the model honours for this run only, e.g. tools,forced-tool-choice or json-schema (${Object.keys(CAPABILITY_NAMES).join(', ')}, none)`,
    )
    .option('--json', 'print the result as JSON')
}

export const NA_SCOPE_HELP = `faaf-* and refchecker-batched: what an invalid argument in a reply makes N/A — call (${NA_SCOPE_LABELS.call}, default) or field (${NA_SCOPE_LABELS.field}; the other arguments of the reply are kept)`

/** `--na-scope` as given, refused before anything is stored when it is neither rule. */
export function naScopeFlag(raw: string | undefined): NaScope | undefined {
  if (raw === undefined) return undefined
  const found = NA_SCOPES.find((v) => v === raw)
  if (!found) throw new CliError(`--na-scope must be ${NA_SCOPES.join(' or ')}, got "${raw}"`, EXIT.usage)
  return found
}
