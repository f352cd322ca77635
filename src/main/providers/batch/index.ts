import type { ProviderOptions } from '../client'
import { createAnthropicBatchApi } from './anthropicBatch'
import { createOpenAiBatchApi } from './openaiBatch'
import type { BatchApi, BatchLimits } from './types'

export * from './types'

/** The batch API of a run's provider; only OpenAI and Anthropic have one. */
export function createBatchApi(opts: ProviderOptions, limits?: BatchLimits): BatchApi {
  if (opts.provider === 'openai') return createOpenAiBatchApi(opts, limits)
  if (opts.provider === 'anthropic') return createAnthropicBatchApi(opts, limits)
  throw new Error(`${opts.provider} has no batch API; run it call by call`)
}
