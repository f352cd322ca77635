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

/** One model behind one wire format. */
export interface ProviderClient {
  complete(req: LlmRequest, signal: AbortSignal): Promise<LlmReply>
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
