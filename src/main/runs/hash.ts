import { createHash } from 'node:crypto'

/** JSON with object keys sorted at every level, so equal requests hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = sortKeys(v)
    }
    return out
  }
  return value
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * The response-cache key. Repeats (repeat index > 0) get their own keys, so `--repeat K` really
 * asks the model K times while re-running the same K repeats is still answered from the cache.
 */
export function requestHash(input: {
  provider: string
  model: string
  baseUrl: string | null
  request: unknown
  repeatIndex: number
  /**
   * How the structure is asked for, when the model's capabilities make it a fallback
   * (json-schema, json-mode, prompt): the same request can get a different reply on another
   * path. Tool-call and plain-text requests leave it out and keep the keys they always had.
   */
  path?: string
}): string {
  const base = {
    provider: input.provider,
    model: input.model,
    baseUrl: input.baseUrl ?? '',
    request: input.request,
    ...(input.path !== undefined && input.path !== 'tool-call' && input.path !== 'text'
      ? { path: input.path }
      : {}),
  }
  return sha256(canonicalJson(input.repeatIndex > 0 ? { ...base, repeat: input.repeatIndex } : base))
}
