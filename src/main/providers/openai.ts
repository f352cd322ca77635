import OpenAI from 'openai'
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions'
import { type ProviderClient, type ProviderOptions, usesToolCall } from './client'
import { toTransportError } from './errors'
import { leanFetch } from './httpFetch'
import { extractJsonObject, jsonFallbackInstruction } from './jsonText'
import type { LlmReply, LlmRequest } from './types'

/** Builds the Chat Completions body: a forced function call where possible, else JSON in text. */
export function openAiBody(req: LlmRequest, opts: ProviderOptions): ChatCompletionCreateParamsNonStreaming {
  const caps = opts.capabilities
  const toolCall = usesToolCall(req, caps)
  const messages: ChatCompletionMessageParam[] = []
  if (req.system) messages.push({ role: 'system', content: req.system })
  req.messages.forEach((m, i) => {
    const last = i === req.messages.length - 1
    const content =
      last && req.tool && !toolCall ? `${m.content}\n\n${jsonFallbackInstruction(req.tool)}` : m.content
    messages.push({ role: m.role, content })
  })
  const body: ChatCompletionCreateParamsNonStreaming = { model: opts.model, messages }
  if (req.temperature !== undefined) body.temperature = req.temperature
  if (req.maxTokens !== undefined) {
    // OpenAI's own API has moved to max_completion_tokens; compatible servers still read max_tokens.
    if (opts.provider === 'openai') body.max_completion_tokens = req.maxTokens
    else body.max_tokens = req.maxTokens
  }
  if (req.tool && toolCall) {
    body.tools = [
      {
        type: 'function',
        function: {
          name: req.tool.name,
          description: req.tool.description,
          parameters: req.tool.parameters,
          ...(caps.strictSchema ? { strict: true } : {}),
        },
      },
    ]
    body.tool_choice = { type: 'function', function: { name: req.tool.name } }
  } else if (req.tool && caps.jsonMode) {
    body.response_format = { type: 'json_object' }
  }
  return body
}

export function openAiReply(completion: ChatCompletion, toolCall: boolean, wantsTool: boolean): LlmReply {
  const choice = completion.choices?.[0]
  const message = choice?.message
  const text = typeof message?.content === 'string' ? message.content : null
  let toolArguments: string | null = null
  if (toolCall) {
    const call = message?.tool_calls?.find((c) => c.type === 'function')
    toolArguments = call && call.type === 'function' ? call.function.arguments : null
  } else if (wantsTool && text !== null) {
    toolArguments = extractJsonObject(text)
  }
  return {
    text,
    toolArguments,
    viaFallback: wantsTool && !toolCall,
    finishReason: choice?.finish_reason ?? null,
    usage: {
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
    },
    raw: completion,
  }
}

export function createOpenAiClient(opts: ProviderOptions): ProviderClient {
  const client = new OpenAI({
    apiKey: opts.apiKey || 'no-key',
    baseURL: opts.baseUrl || undefined,
    // The run engine owns retries so it can count attempts and honour retry-after itself.
    maxRetries: 0,
    timeout: opts.timeoutMs,
    logLevel: 'off',
    fetch: leanFetch,
  })
  return {
    wireBody: (req) => ({ ...openAiBody(req, opts) }),
    async complete(req, signal) {
      const body = openAiBody(req, opts)
      try {
        const completion = await client.chat.completions.create(body, { signal, timeout: opts.timeoutMs })
        return openAiReply(completion, usesToolCall(req, opts.capabilities), req.tool !== undefined)
      } catch (error) {
        throw toTransportError(error)
      }
    },
  }
}
