import type { RpcResult } from './define'
import type { EventName } from './events'

/**
 * What the preload exposes as `window.factlab` in the desktop app: one function per contract
 * call (built from CALL_NAMES, nothing generic) and one event subscription.
 */
export interface FactlabBridge {
  calls: Record<string, (input: unknown) => Promise<RpcResult<unknown>>>
  onEvent(listener: (name: EventName, payload: unknown) => void): () => void
}

/** Browser mode: the HTTP paths and header the server and the renderer agree on. */
export const HTTP_CALL_PREFIX = '/api/call/'
export const HTTP_EVENTS_PATH = '/api/events'
export const TOKEN_HEADER = 'x-factlab-token'
export const TOKEN_QUERY = 'token'
