/**
 * The provider batch APIs (OpenAI Batch, Anthropic Message Batches) behind one narrow interface,
 * so the batch driver in `src/main/batches/` never touches an SDK.
 */

/** What one batch may hold; injectable so tests can split small. */
export interface BatchLimits {
  maxRequests: number
  maxBytes: number
}

/** OpenAI: 50,000 requests and 200 MB per batch input file. */
export const OPENAI_BATCH_LIMITS: BatchLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 }
/** Anthropic: 100,000 requests or 256 MB per Message Batch. */
export const ANTHROPIC_BATCH_LIMITS: BatchLimits = { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 }

/** Where a batch is, in the provider-neutral terms the driver acts on. */
export type BatchPhase = 'in_progress' | 'finalizing' | 'ended'

export interface BatchState {
  id: string
  phase: BatchPhase
  /** The provider's own word (validating, completed, expired, cancelled, failed, ended, …). */
  providerStatus: string
  counts: { total: number; succeeded: number; errored: number; processing: number }
  outputFileId: string | null
  errorFileId: string | null
  /** Why the provider refused the whole batch (OpenAI validation failure), if it did. */
  error: string | null
}

/** One request's outcome as the provider reports it. */
export type BatchResult =
  | { customId: string; kind: 'succeeded'; body: unknown }
  | { customId: string; kind: 'errored'; status: number | undefined; message: string }
  | { customId: string; kind: 'unfinished'; why: 'expired' | 'cancelled' }

export interface BatchApi {
  readonly provider: 'openai' | 'anthropic'
  readonly limits: BatchLimits
  /** The line this request adds to the batch; its byte length counts against `maxBytes`. */
  lineOf(customId: string, body: Record<string, unknown>): string
  /** OpenAI uploads the JSONL input file and returns its id; Anthropic has no upload (null). */
  upload(lines: readonly string[], signal: AbortSignal): Promise<string | null>
  create(
    input: { fileId: string | null; lines: readonly string[]; tag: string },
    signal: AbortSignal,
  ): Promise<BatchState>
  /**
   * A batch this workspace may have created just before it was killed, before the id was
   * stored: OpenAI's is found by its input file, Anthropic's by its size and creation time.
   * `known` are provider ids already recorded, never adopted twice.
   */
  findCreated(
    input: { fileId: string | null; requests: number; since: string },
    known: ReadonlySet<string>,
    signal: AbortSignal,
  ): Promise<BatchState | null>
  retrieve(id: string, signal: AbortSignal): Promise<BatchState>
  /**
   * Asks the provider to stop the batch: requests not yet answered are never run (nor paid);
   * those already answered stay in its results. The batch ends shortly after, as cancelled.
   */
  cancel(id: string, signal: AbortSignal): Promise<BatchState>
  /**
   * Streams an ended batch's results, one call per complete line, in file order. Throws (a
   * retryable TransportError) when the download breaks off; lines already handed over stay valid.
   */
  results(state: BatchState, onResult: (r: BatchResult) => void, signal: AbortSignal): Promise<void>
}
