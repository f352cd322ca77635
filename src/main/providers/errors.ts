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

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500
}

interface SdkErrorShape {
  name?: unknown
  message?: unknown
  status?: unknown
  headers?: unknown
}

/**
 * Maps an SDK exception (openai or @anthropic-ai/sdk share the same error hierarchy by name)
 * to a TransportError. Duck-typed by name so both SDKs go through one function.
 */
export function toTransportError(error: unknown): TransportError {
  if (error instanceof TransportError) return error
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape
  const name = typeof e.name === 'string' ? e.name : ''
  const message = typeof e.message === 'string' ? e.message : String(error)
  if (name === 'APIConnectionTimeoutError' || name === 'TimeoutError')
    return new TransportError(`the request timed out (${message})`, { retryable: true })
  if (name === 'APIUserAbortError' || name === 'AbortError')
    return new TransportError('the request was aborted', { retryable: false })
  if (name === 'APIConnectionError')
    return new TransportError(`connection failed: ${message}`, { retryable: true })
  if (typeof e.status === 'number') {
    const headers = e.headers instanceof Headers ? e.headers : undefined
    return new TransportError(`HTTP ${e.status}: ${message}`, {
      retryable: isRetryableStatus(e.status),
      status: e.status,
      retryAfterMs: retryAfterMs(headers),
    })
  }
  return new TransportError(message, { retryable: false })
}
