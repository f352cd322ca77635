import type { LlmRequest, ModelCapabilities } from './types'

/**
 * How a request that wants structured arguments gets them from a model:
 * - `tool-call`: a forced function call; the arguments are the tool call's.
 * - `json-schema`: `response_format: json_schema`, which servers turn into constrained decoding,
 *   so the reply text is JSON matching the schema by construction.
 * - `json-mode`: `response_format: json_object` (any JSON object) plus the schema in the prompt.
 * - `prompt`: the schema only as text in the prompt; the JSON is read out of whatever comes back.
 * - `text`: the request wants no structure at all (plain-text methods).
 */
export type OutputPathKind = 'tool-call' | 'json-schema' | 'json-mode' | 'prompt' | 'text'

export interface OutputPath {
  kind: OutputPathKind
  /** One sentence a person reads in the request preview. */
  reason: string
}

type Wire = 'openai' | 'anthropic'

/** The path a request takes on a wire format with the model's capabilities; pure. */
export function outputPath(req: LlmRequest, caps: ModelCapabilities, wire: Wire): OutputPath {
  if (!req.tool) return { kind: 'text', reason: 'the method reads plain text, so no schema is sent' }
  if (caps.tools && caps.forcedToolChoice)
    return {
      kind: 'tool-call',
      reason: 'the model takes forced tool calls, so the schema is a function it must call',
    }
  const missing = !caps.tools ? 'no tool calls' : 'tools but no forced tool choice'
  if (wire === 'openai' && caps.jsonSchema)
    return {
      kind: 'json-schema',
      reason: `the server has ${missing} but honours response_format json_schema, so its output is constrained to the schema`,
    }
  if (wire === 'openai' && caps.jsonMode)
    return {
      kind: 'json-mode',
      reason: `the server has ${missing} and no json_schema, so it is asked for a JSON object with the schema in the prompt`,
    }
  return {
    kind: 'prompt',
    reason: `the server has ${missing}, no json_schema and no JSON mode, so the schema goes in the prompt and the JSON is read from the reply (a model that wanders off the format gives N/A)`,
  }
}

/** A name the json_schema response format accepts (letters, digits, `_` and `-`, at most 64). */
export function schemaName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64)
  return clean === '' ? 'response' : clean
}
