import OpenAI from 'openai'
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions'
import type { Db } from '../store/connection'
import { sdkOptions } from './adapter'
import type { ProviderOptions } from './client'
import { toTransportError } from './errors'
import { extractJsonObject } from './jsonText'
import { getModel, type ModelEntry, saveModel } from './models'
import type { ModelCapabilities } from './types'

type Probed = 'tools' | 'forcedToolChoice' | 'strictSchema' | 'jsonMode' | 'jsonSchema'

export interface ProbeResult {
  capability: Probed
  honoured: boolean
  /** What the server did, in a few words (shown beside the checkbox and printed by the CLI). */
  detail: string
}

const TOOL = 'record_answer'
const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string', enum: ['yes', 'no'] } },
  required: ['answer'],
  additionalProperties: false,
}
const ASK = 'Is the sky blue on a clear day? Give the answer yes or no.'
const tool = (strict: boolean) => ({
  type: 'function' as const,
  function: {
    name: TOOL,
    description: 'Records a yes/no answer.',
    parameters: SCHEMA,
    ...(strict ? { strict: true } : {}),
  },
})

/** True when `text` is a JSON object whose `answer` is yes or no (what the schema demands). */
function answersSchema(text: string | null | undefined): boolean {
  if (!text) return false
  try {
    const v: unknown = JSON.parse(text.trim())
    if (typeof v !== 'object' || v === null) return false
    const keys = Object.keys(v)
    const answer = (v as { answer?: unknown }).answer
    return keys.length === 1 && (answer === 'yes' || answer === 'no')
  } catch {
    return false
  }
}

interface Probe {
  capability: Probed
  body: Omit<ChatCompletionCreateParamsNonStreaming, 'model'>
  judge(c: ChatCompletion): { honoured: boolean; detail: string }
}

const toolCallOf = (c: ChatCompletion) =>
  c.choices?.[0]?.message?.tool_calls?.find((t) => t.type === 'function' && t.function.name === TOOL)

const PROBES: Probe[] = [
  {
    capability: 'tools',
    body: { messages: [{ role: 'user', content: `${ASK} Use the ${TOOL} function.` }], tools: [tool(false)] },
    judge: (c) =>
      toolCallOf(c)
        ? { honoured: true, detail: 'called the offered function' }
        : { honoured: false, detail: 'answered in text instead of calling the function' },
  },
  {
    capability: 'forcedToolChoice',
    body: {
      messages: [{ role: 'user', content: ASK }],
      tools: [tool(false)],
      tool_choice: { type: 'function', function: { name: TOOL } },
    },
    judge: (c) =>
      toolCallOf(c)
        ? { honoured: true, detail: 'called the function it was made to call' }
        : { honoured: false, detail: 'ignored tool_choice' },
  },
  {
    capability: 'strictSchema',
    body: {
      messages: [{ role: 'user', content: ASK }],
      tools: [tool(true)],
      tool_choice: { type: 'function', function: { name: TOOL } },
    },
    judge: (c) => {
      const call = toolCallOf(c)
      const args = call?.type === 'function' ? call.function.arguments : null
      return answersSchema(args)
        ? { honoured: true, detail: 'the strict function call matched the schema' }
        : { honoured: false, detail: 'no strict function call matching the schema' }
    },
  },
  {
    capability: 'jsonMode',
    body: {
      messages: [{ role: 'user', content: `${ASK} Reply with a JSON object {"answer": "yes" | "no"}.` }],
      response_format: { type: 'json_object' },
    },
    judge: (c) => {
      const text = c.choices?.[0]?.message?.content ?? null
      return text !== null && extractJsonObject(text) === text.trim()
        ? { honoured: true, detail: 'the whole reply was one JSON object' }
        : { honoured: false, detail: 'the reply was not a bare JSON object' }
    },
  },
  {
    capability: 'jsonSchema',
    body: {
      messages: [{ role: 'user', content: ASK }],
      response_format: { type: 'json_schema', json_schema: { name: 'probe', schema: SCHEMA, strict: true } },
    },
    judge: (c) =>
      answersSchema(c.choices?.[0]?.message?.content)
        ? { honoured: true, detail: 'the reply was JSON matching the schema' }
        : { honoured: false, detail: 'the reply did not follow the json_schema response format' },
  },
]

/** Statuses that mean "the server refuses this parameter", not "the server is unusable". */
const REFUSED = new Set([400, 404, 415, 422, 500, 501])

/**
 * Sends one tiny request per capability to an OpenAI-compatible server and reports which it
 * honours. A server that cannot be reached, or refuses the key, fails the whole probe (nothing is
 * learnt); a server that rejects one parameter just does not have that capability.
 */
export async function probeCapabilities(
  opts: Omit<ProviderOptions, 'capabilities'>,
): Promise<{ results: ProbeResult[]; capabilities: Pick<ModelCapabilities, Probed> }> {
  const client = new OpenAI(sdkOptions({ ...opts, capabilities: {} as ModelCapabilities }))
  const results: ProbeResult[] = []
  for (const p of PROBES) {
    try {
      const reply = await client.chat.completions.create({
        model: opts.model,
        max_tokens: 64,
        temperature: 0,
        ...p.body,
      } as ChatCompletionCreateParamsNonStreaming)
      results.push({ capability: p.capability, ...p.judge(reply) })
    } catch (error) {
      const t = toTransportError(error)
      if (t.status === 401 || t.status === 403 || t.status === undefined)
        throw new Error(`the probe could not talk to ${opts.baseUrl ?? opts.provider}: ${t.message}`)
      if (!REFUSED.has(t.status)) throw new Error(`the probe failed: ${t.message}`)
      results.push({ capability: p.capability, honoured: false, detail: `refused (HTTP ${t.status})` })
    }
  }
  if (results.every((r) => r.detail === 'refused (HTTP 404)'))
    throw new Error(
      `every probe got HTTP 404 from ${opts.baseUrl}: check the base URL (it usually ends in /v1) and the model name`,
    )
  const on = (c: Probed) => results.some((r) => r.capability === c && r.honoured)
  return {
    results,
    capabilities: {
      tools: on('tools') || on('forcedToolChoice'),
      forcedToolChoice: on('forcedToolChoice'),
      strictSchema: on('strictSchema'),
      jsonMode: on('jsonMode'),
      jsonSchema: on('jsonSchema'),
    },
  }
}

/**
 * Probes a model and records what it honours in the workspace's model table (prices and schema
 * limits are kept), so every later run of that model takes the best output path it has.
 */
export async function detectModel(
  db: Db,
  m: {
    provider: ProviderOptions['provider']
    model: string
    baseUrl: string
    apiKey: string | null
    timeoutMs?: number
  },
): Promise<{ model: ModelEntry; results: ProbeResult[] }> {
  if (m.provider !== 'openai-compatible' && m.provider !== 'openai')
    throw new Error(`Detect talks to OpenAI-compatible servers; ${m.provider} models have fixed capabilities`)
  if (m.provider === 'openai-compatible' && m.baseUrl.trim() === '')
    throw new Error('openai-compatible needs a base URL (for example http://localhost:11434/v1)')
  const probed = await probeCapabilities({
    provider: m.provider,
    model: m.model,
    baseUrl: m.baseUrl || null,
    apiKey: m.apiKey,
    timeoutMs: m.timeoutMs ?? 60_000,
  })
  const current = getModel(db, m.provider, m.model, m.baseUrl)
  const model = saveModel(db, {
    ...current,
    capabilities: { ...current.capabilities, ...probed.capabilities },
  })
  return { model, results: probed.results }
}
