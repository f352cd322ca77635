import type { RpcResult } from './define'
import type { EventName } from './events'

/**
 * What the preload exposes as `window.factlab` in the desktop app: one function per contract
 * call (built from CALL_NAMES, nothing generic) and one event subscription.
 */
export interface FactlabBridge {
  calls: Record<string, (input: unknown) => Promise<RpcResult<unknown>>>
  onEvent(listener: (name: EventName, payload: unknown) => void): () => void
  /** Where a picked file lives on disk, so main reads it there ('' for a file with no path). */
  pathForFile?(file: File): string
}

/** Browser mode: the HTTP paths and header the server and the renderer agree on. */
export const HTTP_CALL_PREFIX = '/api/call/'
export const HTTP_EVENTS_PATH = '/api/events'
/** `POST ?name=<file name>` with the file's bytes as the body; answers `{ uploadId }`. */
export const HTTP_UPLOAD_PATH = '/api/upload'
/** Browser mode: GET <prefix><downloadId> streams a prepared export once (exports.download). */
export const HTTP_DOWNLOAD_PREFIX = '/api/download/'
export const TOKEN_HEADER = 'x-factlab-token'
export const TOKEN_QUERY = 'token'
