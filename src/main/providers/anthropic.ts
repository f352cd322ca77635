import Anthropic from '@anthropic-ai/sdk'
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages'
import { sdkOptions, toLlmReply, turnsFor, wireClient } from './adapter'
import { type ProviderClient, type ProviderOptions, usesToolCall } from './client'
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
  const body: MessageCreateParamsNonStreaming = {
    model: opts.model,
    max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: turnsFor(req, toolCall),
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
  const use = blocks.find((b) => b.type === 'tool_use')
  return toLlmReply(
    {
      text: texts.length > 0 ? texts.join('\n') : null,
      toolCallArguments: use && use.type === 'tool_use' ? JSON.stringify(use.input) : null,
      finishReason: message.stop_reason ?? null,
      // Anthropic counts cache reads and writes apart from input_tokens; here they are summed so
      // promptTokens means the same on both wires.
      promptTokens:
        (message.usage?.input_tokens ?? 0) +
        (message.usage?.cache_read_input_tokens ?? 0) +
        (message.usage?.cache_creation_input_tokens ?? 0),
      completionTokens: message.usage?.output_tokens ?? 0,
      cacheReadTokens: message.usage?.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage?.cache_creation_input_tokens ?? 0,
      raw: message,
    },
    toolCall,
    wantsTool,
  )
}

export function createAnthropicClient(opts: ProviderOptions): ProviderClient {
  const client = new Anthropic(sdkOptions(opts))
  return wireClient(opts, anthropicBody, (body, o) => client.messages.create(body, o), anthropicReply)
}
