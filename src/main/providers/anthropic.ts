import Anthropic from '@anthropic-ai/sdk'
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages'
import { type ProviderClient, type ProviderOptions, usesToolCall } from './client'
import { toTransportError } from './errors'
import { leanFetch } from './httpFetch'
import { extractJsonObject, jsonFallbackInstruction } from './jsonText'
import type { LlmReply, LlmRequest } from './types'

/** The Messages API requires max_tokens; this is enough for any verdict tool call. */
const DEFAULT_MAX_TOKENS = 2048

type ToolInputSchema = Extract<MessageCreateParamsNonStreaming['tools'], unknown[]>[number] extends infer T
  ? T extends { input_schema: infer S }
    ? S
    : never
  : never

export function anthropicBody(req: LlmRequest, opts: ProviderOptions): MessageCreateParamsNonStreaming {
  const toolCall = usesToolCall(req, opts.capabilities)
  const messages = req.messages.map((m, i) => {
    const last = i === req.messages.length - 1
    const content =
      last && req.tool && !toolCall ? `${m.content}\n\n${jsonFallbackInstruction(req.tool)}` : m.content
    return { role: m.role, content }
  })
  const body: MessageCreateParamsNonStreaming = {
    model: opts.model,
    max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages,
  }
  if (req.system) body.system = req.system
  // This Messages API version takes no sampling temperature, so the setting is not sent.
  if (req.tool && toolCall) {
    body.tools = [
      {
        name: req.tool.name,
        description: req.tool.description,
        input_schema: req.tool.parameters as ToolInputSchema,
      },
    ]
    body.tool_choice = { type: 'tool', name: req.tool.name }
  }
  return body
}

export function anthropicReply(message: Message, toolCall: boolean, wantsTool: boolean): LlmReply {
  const blocks = Array.isArray(message.content) ? message.content : []
  const texts = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []))
  const text = texts.length > 0 ? texts.join('\n') : null
  let toolArguments: string | null = null
  if (toolCall) {
    const use = blocks.find((b) => b.type === 'tool_use')
    toolArguments = use && use.type === 'tool_use' ? JSON.stringify(use.input) : null
  } else if (wantsTool && text !== null) {
    toolArguments = extractJsonObject(text)
  }
  return {
    text,
    toolArguments,
    viaFallback: wantsTool && !toolCall,
    finishReason: message.stop_reason ?? null,
    usage: {
      promptTokens: message.usage?.input_tokens ?? 0,
      completionTokens: message.usage?.output_tokens ?? 0,
    },
    raw: message,
  }
}

export function createAnthropicClient(opts: ProviderOptions): ProviderClient {
  const client = new Anthropic({
    apiKey: opts.apiKey || 'no-key',
    baseURL: opts.baseUrl || undefined,
    maxRetries: 0,
    timeout: opts.timeoutMs,
    logLevel: 'off',
    fetch: leanFetch,
  })
  return {
    wireBody: (req) => ({ ...anthropicBody(req, opts) }),
    async complete(req, signal) {
      const body = anthropicBody(req, opts)
      try {
        const message = await client.messages.create(body, { signal, timeout: opts.timeoutMs })
        return anthropicReply(message, usesToolCall(req, opts.capabilities), req.tool !== undefined)
      } catch (error) {
        throw toTransportError(error)
      }
    },
  }
}
