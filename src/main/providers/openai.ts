import OpenAI from 'openai'
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions'
import { sdkOptions, toLlmReply, turnsFor, wireClient } from './adapter'
import { type ProviderClient, type ProviderOptions, usesToolCall } from './client'
import { outputPath, schemaName } from './outputPath'
import type { LlmReply, LlmRequest } from './types'

/**
 * Builds the Chat Completions body: a forced function call where possible, else the schema as a
 * response format (json_schema, then JSON mode) with the schema also in the prompt.
 */
export function openAiBody(req: LlmRequest, opts: ProviderOptions): ChatCompletionCreateParamsNonStreaming {
  const caps = opts.capabilities
  const toolCall = usesToolCall(req, caps)
  const messages: ChatCompletionMessageParam[] = [
    ...(req.system ? [{ role: 'system' as const, content: req.system }] : []),
    ...turnsFor(req, toolCall),
  ]
  const body: ChatCompletionCreateParamsNonStreaming = { model: opts.model, messages }
  if (req.temperature !== undefined) body.temperature = req.temperature
  if (req.maxTokens !== undefined) {
    // OpenAI's own API has moved to max_completion_tokens; compatible servers still read max_tokens.
    if (opts.provider === 'openai') body.max_completion_tokens = req.maxTokens
    else body.max_tokens = req.maxTokens
  }
  const path = outputPath(req, caps, 'openai').kind
  if (req.tool && path === 'tool-call') {
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
  } else if (req.tool && path === 'json-schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: schemaName(req.tool.name), schema: req.tool.parameters, strict: true },
    }
  } else if (req.tool && path === 'json-mode') {
    body.response_format = { type: 'json_object' }
  }
  return body
}

export function openAiReply(completion: ChatCompletion, toolCall: boolean, wantsTool: boolean): LlmReply {
  const choice = completion.choices?.[0]
  const message = choice?.message
  const call = message?.tool_calls?.find((c) => c.type === 'function')
  return toLlmReply(
    {
      text: typeof message?.content === 'string' ? message.content : null,
      toolCallArguments: call && call.type === 'function' ? call.function.arguments : null,
      finishReason: choice?.finish_reason ?? null,
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
      // Included in prompt_tokens; OpenAI charges nothing extra to write its cache.
      cacheReadTokens: completion.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      cacheWriteTokens: 0,
      raw: completion,
    },
    toolCall,
    wantsTool,
  )
}

export function createOpenAiClient(opts: ProviderOptions): ProviderClient {
  const client = new OpenAI(sdkOptions(opts))
  return wireClient(opts, openAiBody, (body, o) => client.chat.completions.create(body, o), openAiReply)
}
