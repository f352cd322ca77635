import {
  type ProviderClient,
  type ProviderOptions,
  type SendHooks,
  toolCallFor,
  usesToolCall,
} from './client'
import { toTransportError } from './errors'
import { leanFetch, SEND_HOOKS } from './httpFetch'
import { extractJsonObject, jsonFallbackInstruction } from './jsonText'
import type { LlmMessage, LlmReply, LlmRequest } from './types'

/**
 * The conversation as sent. When the tool cannot be forced, the last turn also carries the
 * instruction to answer in JSON, so the fallback reads the same in every wire format.
 */
export function turnsFor(req: LlmRequest, toolCall: boolean): LlmMessage[] {
  return req.messages.map((m, i) => {
    const last = i === req.messages.length - 1
    const content =
      last && req.tool && !toolCall ? `${m.content}\n\n${jsonFallbackInstruction(req.tool)}` : m.content
    return { role: m.role, content }
  })
}

/** What each wire format's reply boils down to before the shared rules apply. */
export interface WireReply {
  text: string | null
  /** Arguments of the forced tool call as JSON text, when the model made one. */
  toolCallArguments: string | null
  finishReason: string | null
  promptTokens: number
  completionTokens: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
  raw: unknown
}

/** A real tool call is read as such; otherwise a tool request falls back to JSON found in the text. */
export function toLlmReply(w: WireReply, toolCall: boolean, wantsTool: boolean): LlmReply {
  let toolArguments: string | null = null
  if (toolCall) toolArguments = w.toolCallArguments
  else if (wantsTool && w.text !== null) toolArguments = extractJsonObject(w.text)
  return {
    text: w.text,
    toolArguments,
    viaFallback: wantsTool && !toolCall,
    finishReason: w.finishReason,
    usage: {
      promptTokens: w.promptTokens,
      completionTokens: w.completionTokens,
      ...(w.cacheReadTokens ? { cacheReadTokens: w.cacheReadTokens } : {}),
      ...(w.cacheWriteTokens ? { cacheWriteTokens: w.cacheWriteTokens } : {}),
    },
    raw: w.raw,
  }
}

/** SDK constructor options both official clients accept. */
export function sdkOptions(opts: ProviderOptions) {
  return {
    apiKey: opts.apiKey || 'no-key',
    baseURL: opts.baseUrl || undefined,
    // The run engine owns retries so it can count attempts and honour retry-after itself.
    maxRetries: 0,
    timeout: opts.timeoutMs,
    logLevel: 'off' as const,
    fetch: leanFetch,
  }
}

/** The per-request options of both SDKs that a completion uses. */
interface SendOptions {
  signal: AbortSignal
  timeout: number
  headers: Record<string, string>
  // Only what it holds: the SDKs type the init with their own copy of undici's types.
  fetchOptions: { [SEND_HOOKS]: SendHooks; body?: never }
}

/** The longest timer Node keeps (about 24 days): a longer one fires at once. */
const NO_TIMEOUT = 2 ** 31 - 1

/**
 * A completion's options with its hooks handed to the lean fetch. The SDK's timer starts before
 * its fetch, so it would count the wait for a slot as waiting for the provider: it is switched off,
 * and the caller times the attempt from the moment the request leaves. The timeout the SDK tells
 * the provider (a header of its own) stays the configured one.
 */
function hookedSend(signal: AbortSignal, hooks: SendHooks, timeoutMs: number): SendOptions {
  return {
    signal,
    timeout: NO_TIMEOUT,
    headers: { 'X-Stainless-Timeout': String(Math.trunc(timeoutMs / 1000)) },
    fetchOptions: { [SEND_HOOKS]: hooks },
  }
}

/**
 * A provider client from one wire format's three parts: building the body, sending it, and
 * reading the reply. Any failure on the way becomes a TransportError the engine can classify.
 */
export function wireClient<Body extends object, Reply>(
  opts: ProviderOptions,
  build: (req: LlmRequest, opts: ProviderOptions) => Body,
  send: (body: Body, options: SendOptions) => Promise<Reply>,
  read: (reply: Reply, toolCall: boolean, wantsTool: boolean) => LlmReply,
): ProviderClient {
  return {
    // A plain copy: what is shown in previews and kept in the raw record, never the SDK's object.
    wireBody: (req) => Object.fromEntries(Object.entries(build(req, opts))),
    readReply: (raw, wantsTool) => read(raw as Reply, toolCallFor(wantsTool, opts.capabilities), wantsTool),
    async complete(req, signal, hooks) {
      const body = build(req, opts)
      try {
        const reply = await send(body, hookedSend(signal, hooks, opts.timeoutMs))
        return read(reply, usesToolCall(req, opts.capabilities), req.tool !== undefined)
      } catch (error) {
        throw toTransportError(error)
      }
    },
  }
}
