import { LLM_PROVIDERS } from '../../shared/contract/judges'
import type { LlmReply, LlmRequest, ModelCapabilities } from './types'

export const PROVIDER_NAMES = LLM_PROVIDERS
export type ProviderName = (typeof PROVIDER_NAMES)[number]

export interface ProviderOptions {
  provider: ProviderName
  model: string
  baseUrl?: string | null
  apiKey?: string | null
  capabilities: ModelCapabilities
  timeoutMs: number
}

/** What a client tells its caller about one request's way out and back. */
export interface SendHooks {
  /**
   * Awaited once the SDK has built the request, just before it leaves: whatever it waits for (a
   * concurrency slot, a rate limit) then holds back the request itself, while the SDK's own work
   * to build it is done during the wait rather than after it.
   */
  beforeSend(): Promise<void>
  /**
   * Told that a reply has arrived whole, with its HTTP status, before anything reads it. True if
   * that let another request go: the client then reads this reply a turn later, once that one
   * has left.
   */
  replied?(status: number): boolean
}

/** For a request that waits for nothing. */
export const sendAtOnce: SendHooks = { beforeSend: async () => undefined }

/** One model behind one wire format. */
export interface ProviderClient {
  /** Sends `req` (see SendHooks) and reads the reply. */
  complete(req: LlmRequest, signal: AbortSignal, hooks: SendHooks): Promise<LlmReply>
  /**
   * The JSON body the SDK sends for this request (no headers, so never the key): shown in the
   * preview before a run and kept in the raw record of every call.
   */
  wireBody(req: LlmRequest): Record<string, unknown>
  /**
   * Reads a reply body that came back some other way than `complete` (a batch results line) by
   * the same rules; the caller validates its envelope first. Of the request, only whether it
   * asked for a tool call matters, so a stored request need not be parsed again to read a reply.
   */
  readReply?(raw: unknown, wantsTool: boolean): LlmReply
}

/** Whether a tool request goes out as a real forced tool call or as the JSON-in-text fallback. */
export function usesToolCall(req: LlmRequest, caps: ModelCapabilities): boolean {
  return toolCallFor(req.tool !== undefined, caps)
}

/** `usesToolCall` for a request known only by whether it asks for a tool. */
export function toolCallFor(wantsTool: boolean, caps: ModelCapabilities): boolean {
  return wantsTool && caps.tools && caps.forcedToolChoice
}
