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

/**
 * The first turn split where its shared prefix ends, with a cache breakpoint on the prefix: the
 * system prompt and everything up to there is written to Anthropic's prompt cache by the first
 * call of a task and read back (at a tenth of the price) by the others.
 */
function withCacheBreak(
  turns: ReturnType<typeof turnsFor>,
  cachePrefix: number | undefined,
): MessageCreateParamsNonStreaming['messages'] {
  const first = turns[0]
  if (!first || !cachePrefix || cachePrefix <= 0 || cachePrefix >= first.content.length) return turns
  return [
    {
      role: first.role,
      content: [
        { type: 'text', text: first.content.slice(0, cachePrefix), cache_control: { type: 'ephemeral' } },
        { type: 'text', text: first.content.slice(cachePrefix) },
      ],
    },
    ...turns.slice(1),
  ]
}

export function anthropicBody(req: LlmRequest, opts: ProviderOptions): MessageCreateParamsNonStreaming {
  const toolCall = usesToolCall(req, opts.capabilities)
  const turns = turnsFor(req, toolCall)
  const body: MessageCreateParamsNonStreaming = {
    model: opts.model,
    max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: withCacheBreak(turns, req.cachePrefix),
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
