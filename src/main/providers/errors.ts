import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'

/**
 * A failure to get any reply from the provider. `retryable` tells the engine whether another
 * attempt can help (rate limits, server errors, timeouts, dropped connections) or not (a bad
 * request or a wrong key will fail the same way every time).
 */
export class TransportError extends Error {
  override name = 'TransportError'
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined
  readonly status: number | undefined

  constructor(message: string, opts: { retryable: boolean; retryAfterMs?: number; status?: number }) {
    super(message)
    this.retryable = opts.retryable
    this.retryAfterMs = opts.retryAfterMs
    this.status = opts.status
  }
}

/** Parses `retry-after-ms`, or `retry-after` as seconds or an HTTP date, into milliseconds. */
export function retryAfterMs(headers: Headers | undefined, nowMs = Date.now()): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const raw = headers.get('retry-after')
  if (raw === null || raw.trim() === '') return undefined
  const seconds = Number(raw)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(raw)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500
}

type Kind = 'timeout' | 'abort' | 'connection' | 'status' | 'other'

function kindOf(error: unknown): Kind {
  // Subclasses first: a timeout is also a connection error in both SDKs.
  if (
    error instanceof OpenAI.APIConnectionTimeoutError ||
    error instanceof Anthropic.APIConnectionTimeoutError
  )
    return 'timeout'
  if (error instanceof OpenAI.APIUserAbortError || error instanceof Anthropic.APIUserAbortError)
    return 'abort'
  if (error instanceof OpenAI.APIConnectionError || error instanceof Anthropic.APIConnectionError)
    return 'connection'
  if (error instanceof OpenAI.APIError || error instanceof Anthropic.APIError) return 'status'
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'abort'
  return 'other'
}

/** Runs an SDK call, turning whatever it throws into a TransportError (see toTransportError). */
export async function asTransport<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    throw toTransportError(error)
  }
}

/** Maps an exception of either SDK to a TransportError the engine can act on. */
export function toTransportError(error: unknown): TransportError {
  if (error instanceof TransportError) return error
  const message = error instanceof Error ? error.message : String(error)
  switch (kindOf(error)) {
    case 'timeout':
      return new TransportError(`the request timed out (${message})`, { retryable: true })
    case 'abort':
      return new TransportError('the request was aborted', { retryable: false })
    case 'connection':
      return new TransportError(`connection failed: ${message}`, { retryable: true })
    case 'status': {
      const e = error as InstanceType<typeof OpenAI.APIError>
      if (typeof e.status !== 'number') return new TransportError(message, { retryable: true })
      return new TransportError(`HTTP ${e.status}: ${message}`, {
        retryable: isRetryableStatus(e.status),
        status: e.status,
        retryAfterMs: retryAfterMs(e.headers instanceof Headers ? e.headers : undefined),
      })
    }
    default:
      return new TransportError(message, { retryable: false })
  }
}
