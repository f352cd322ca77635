/**
 * The provider-neutral request and reply every method speaks. Adapters (openai, anthropic,
 * openai-compatible) translate them to and from the wire formats through the official SDKs.
 */
export interface LlmMessage {
  role: 'user' | 'assistant'
  content: string
}

/** A function the model is made to call (forced tool choice); its arguments carry the verdicts. */
export interface LlmTool {
  name: string
  description: string
  /** JSON Schema of the arguments object, from `z.toJSONSchema`. */
  parameters: Record<string, unknown>
}

export interface LlmRequest {
  system?: string
  messages: LlmMessage[]
  /**
   * The first user message's first `cachePrefix` characters (with the system prompt before them)
   * are the same for every call of a task: Anthropic is asked to cache them (`cache_control`);
   * OpenAI caches a shared prefix by itself, which the templates put first.
   */
  cachePrefix?: number
  tool?: LlmTool
  temperature?: number
  maxTokens?: number
}

export interface LlmUsage {
  /** Every prompt token, those read from or written to the provider's prompt cache included. */
  promptTokens: number
  completionTokens: number
  /** Prompt tokens served from the provider's prompt cache (billed lower). */
  cacheReadTokens?: number
  /** Prompt tokens written to the prompt cache (Anthropic bills these higher). */
  cacheWriteTokens?: number
}

export interface LlmReply {
  /** Text the model wrote (null when it only called the tool). */
  text: string | null
  /**
   * The raw JSON text of the tool call's arguments, or — where the provider has no tools and the
   * JSON-in-text fallback was used — the JSON found in the text. null when there was none.
   */
  toolArguments: string | null
  /** True when the arguments came from the JSON-in-text fallback rather than a real tool call. */
  viaFallback: boolean
  finishReason: string | null
  usage: LlmUsage
  /** The provider's reply as received, for the raw record (never contains the key). */
  raw: unknown
}

/** What a model can do; editable per model in the app. */
export interface ModelCapabilities {
  tools: boolean
  /** Forced tool choice (`tool_choice` naming the function). Ollama has tools but not this. */
  forcedToolChoice: boolean
  strictSchema: boolean
  jsonMode: boolean
  /** The server honours `response_format: {type: "json_schema"}` and decodes to the schema. */
  jsonSchema: boolean
  /** Schema limits: OpenAI caps properties and enum values per strict schema. */
  maxSchemaProperties: number
  maxEnumValues: number
}

export const DEFAULT_CAPABILITIES: Record<'openai' | 'anthropic' | 'openai-compatible', ModelCapabilities> = {
  openai: {
    tools: true,
    forcedToolChoice: true,
    strictSchema: true,
    jsonMode: true,
    jsonSchema: true,
    maxSchemaProperties: 100,
    maxEnumValues: 500,
  },
  anthropic: {
    tools: true,
    forcedToolChoice: true,
    strictSchema: false,
    jsonMode: false,
    jsonSchema: false,
    maxSchemaProperties: 1000,
    maxEnumValues: 10000,
  },
  'openai-compatible': {
    tools: false,
    forcedToolChoice: false,
    strictSchema: false,
    jsonMode: false,
    jsonSchema: false,
    maxSchemaProperties: 1000,
    maxEnumValues: 10000,
  },
}
