// providers/ owns talking to LLM APIs: OpenAI, Anthropic and OpenAI-compatible clients behind one
// interface, API keys, and the model list with prices and capabilities.
import { createAnthropicClient } from './anthropic'
import type { ProviderClient, ProviderOptions } from './client'
import { TransportError } from './errors'
import { createOpenAiClient } from './openai'

export * from './client'
export { TransportError, toTransportError } from './errors'

/**
 * One client per (provider, model). `lexical` never calls out: the lexical method computes its
 * scores locally, so a call reaching this client is a programming error worth a clear message.
 */
export function createProvider(opts: ProviderOptions): ProviderClient {
  switch (opts.provider) {
    case 'openai':
    case 'openai-compatible':
      if (opts.provider === 'openai-compatible' && !opts.baseUrl)
        throw new Error('openai-compatible needs a base URL (for example http://localhost:11434/v1)')
      return createOpenAiClient(opts)
    case 'anthropic':
      return createAnthropicClient(opts)
    case 'lexical':
      return {
        wireBody: () => ({ note: 'the lexical baseline makes no network calls' }),
        complete: async () => {
          throw new TransportError('the lexical provider cannot make LLM calls', { retryable: false })
        },
      }
  }
}
