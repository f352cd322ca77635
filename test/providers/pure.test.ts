import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anthropicBody } from '../../src/main/providers/anthropic'
import type { ProviderOptions } from '../../src/main/providers/client'
import { retryAfterMs, TransportError, toTransportError } from '../../src/main/providers/errors'
import { extractJsonObject } from '../../src/main/providers/jsonText'
import { EnvKeyStore, redactKey } from '../../src/main/providers/keys'
import { openAiBody } from '../../src/main/providers/openai'
import { DEFAULT_CAPABILITIES, type LlmRequest } from '../../src/main/providers/types'

const tool = {
  name: 'record',
  description: 'Records verdicts.',
  parameters: { type: 'object', properties: { fact_0: { type: 'string', enum: ['true', 'false'] } } },
}
const req: LlmRequest = {
  system: 'Be exact.',
  messages: [{ role: 'user', content: 'Check this.' }],
  tool,
  maxTokens: 50,
}
const opts = (
  provider: ProviderOptions['provider'],
  over: Partial<ProviderOptions['capabilities']> = {},
): ProviderOptions => ({
  provider,
  model: 'm',
  capabilities: { ...DEFAULT_CAPABILITIES[provider === 'anthropic' ? 'anthropic' : 'openai'], ...over },
  timeoutMs: 1000,
})

describe('JSON found in free text', () => {
  it('reads a fenced block, or the first balanced object that parses, with prose around it', () => {
    expect(extractJsonObject('Sure!\n```json\n{"a": 1}\n```\nDone.')).toBe('{"a": 1}')
    expect(extractJsonObject('Here: {"a": "}{", "b": {"c": 2}} — hope it helps')).toBe(
      '{"a": "}{", "b": {"c": 2}}',
    )
    expect(extractJsonObject('{not json} then {"ok": true}')).toBe('{"ok": true}')
    expect(extractJsonObject('no object here')).toBeNull()
    expect(extractJsonObject('[1, 2]')).toBeNull()
  })

  it('never throws and only ever returns text that parses to an object', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const found = extractJsonObject(text)
        if (found !== null) expect(typeof JSON.parse(found)).toBe('object')
      }),
    )
  })
})

describe('wire bodies', () => {
  it('OpenAI: forced function call, strict where the model allows it, system first', () => {
    const body = openAiBody(req, opts('openai'))
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be exact.' })
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'record' } })
    expect(body.tools?.[0]).toMatchObject({ function: { name: 'record', strict: true } })
    expect(body.max_completion_tokens).toBe(50)
  })

  it('a server without forced tool choice gets the schema in the prompt instead of tools', () => {
    const body = openAiBody(req, {
      ...opts('openai-compatible', { tools: true, forcedToolChoice: false }),
      baseUrl: 'x',
    })
    expect(body.tools).toBeUndefined()
    expect(body.tool_choice).toBeUndefined()
    const last = body.messages.at(-1)?.content
    expect(last).toContain('Check this.')
    expect(last).toContain(JSON.stringify(tool.parameters))
    expect(body.max_tokens).toBe(50)
  })

  it('Anthropic: tool with input_schema and tool_choice naming it', () => {
    const body = anthropicBody(req, opts('anthropic'))
    expect(body.system).toBe('Be exact.')
    expect(body.tools?.[0]).toMatchObject({ name: 'record', input_schema: tool.parameters })
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'record' })
  })
})

describe('transport errors', () => {
  it('reads retry-after as seconds, as a date, and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000)
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000)
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150' }), now)).toBe(150)
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
  })

  it('keeps a TransportError as it is and treats unknown exceptions as not retryable', () => {
    const t = new TransportError('x', { retryable: true })
    expect(toTransportError(t)).toBe(t)
    expect(toTransportError(new Error('boom')).retryable).toBe(false)
  })
})

describe('keys', () => {
  it('come from the environment in CLI and browser mode, and are scrubbed from texts', () => {
    const store = new EnvKeyStore({ OPENAI_API_KEY: ' sk-1234 ', ANTHROPIC_API_KEY: '' })
    expect(store.get('openai')).toBe('sk-1234')
    expect(store.get('anthropic')).toBeNull()
    expect(store.get('lexical')).toBeNull()
    expect(redactKey('Incorrect key sk-1234 given', 'sk-1234')).toBe('Incorrect key [key] given')
  })
})
