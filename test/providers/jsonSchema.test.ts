import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProviderOptions } from '../../src/main/providers/client'
import { openAiBody } from '../../src/main/providers/openai'
import { outputPath } from '../../src/main/providers/outputPath'
import { DEFAULT_CAPABILITIES, type LlmRequest } from '../../src/main/providers/types'
import { type FakeServer, type Script, startFakeLlm, toolArgsFor } from '../fake-llm/server'
import { testApps } from '../helpers/app'
import { cli } from '../helpers/cli'
import { tmpDirs } from '../helpers/tmp'
import { judgeArgs, modelFlags, previewArgs, savedWorkspace } from '../runs/cliHelpers'

const dir = tmpDirs()
const openApp = testApps()

/** A local server with no tools that ignores JSON asked for in the prompt, but honours json_schema. */
const onlyJsonSchema: Script = (req) => {
  if (Array.isArray(req.body.tools))
    return { kind: 'status', status: 400, message: 'tools are not supported' }
  if (req.jsonSchema) return { kind: 'text', text: JSON.stringify(toolArgsFor(req, 'true')) }
  return { kind: 'text', text: 'I read the passage and these all look fine to me.' }
}

let fake: FakeServer
beforeAll(async () => {
  fake = await startFakeLlm({ script: onlyJsonSchema })
})
afterAll(() => fake.close())

const tool = { name: 'record fact checks!', description: 'd', parameters: { type: 'object', properties: {} } }
const req: LlmRequest = { messages: [{ role: 'user', content: 'hi' }], tool }
const compat = (over: Partial<ProviderOptions['capabilities']>): ProviderOptions => ({
  provider: 'openai-compatible',
  model: 'm',
  baseUrl: 'http://x/v1',
  capabilities: { ...DEFAULT_CAPABILITIES['openai-compatible'], ...over },
  timeoutMs: 1000,
})

describe('output path', () => {
  it('prefers a forced tool call, then json_schema, then JSON mode, then the prompt', () => {
    const caps = DEFAULT_CAPABILITIES['openai-compatible']
    expect(
      outputPath(req, { ...caps, tools: true, forcedToolChoice: true, jsonSchema: true }, 'openai').kind,
    ).toBe('tool-call')
    expect(outputPath(req, { ...caps, tools: true, jsonSchema: true, jsonMode: true }, 'openai').kind).toBe(
      'json-schema',
    )
    expect(outputPath(req, { ...caps, jsonMode: true }, 'openai').kind).toBe('json-mode')
    expect(outputPath(req, caps, 'openai').kind).toBe('prompt')
    // Anthropic has no json_schema response format: without tools the prompt is the only way.
    expect(outputPath(req, { ...caps, jsonSchema: true }, 'anthropic').kind).toBe('prompt')
    expect(outputPath({ messages: req.messages }, caps, 'openai').kind).toBe('text')
  })

  it('sends the tool schema as a strict json_schema response format with a valid name', () => {
    const body = openAiBody(req, compat({ jsonSchema: true }))
    expect(body.tools).toBeUndefined()
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'record_fact_checks_', schema: tool.parameters, strict: true },
    })
  })
})

describe('schema-constrained local judges', () => {
  const small = () => ({ provider: 'openai-compatible', model: 'small-local', baseUrl: fake.openaiUrl })

  it('a server that ignores JSON in the prompt gives all N/A; the json_schema path gives every verdict', async () => {
    const { file } = savedWorkspace(dir(), 3, 7)
    const base = judgeArgs(file, small(), 'faaf-tf', '--json')
    const before = await cli(base)
    expect(JSON.parse(before.out)).toMatchObject({ verdicts: 0, na: 21 })

    const preview = await cli(previewArgs(file, small(), 'faaf-tf', '--capabilities', 'json-schema'))
    expect(preview.out).toMatch(
      /path: json-schema \(the server has no tool calls but honours response_format json_schema/,
    )

    const once = await cli([...base, '--capabilities', 'json-schema'])
    expect(once.code).toBe(0)
    expect(JSON.parse(once.out)).toMatchObject({ status: 'done', verdicts: 21, na: 0, errors: 0 })
  })

  it('models probe records what the server honours, and later runs take the json_schema path by themselves', async () => {
    const { file } = savedWorkspace(dir(), 2, 3)
    const probe = await cli(['models', 'probe', '--workspace', file, ...modelFlags(small())])
    expect(probe.code).toBe(0)
    expect(probe.out).toContain('yes jsonSchema')
    expect(probe.out).toContain('no  tools')
    expect(probe.out).toContain('no  jsonMode')
    expect(probe.out).toMatch(/recorded for openai-compatible\/small-local: json-schema$/m)
    const run = await cli(judgeArgs(file, small(), 'faaf-tf', '--json'))
    expect(JSON.parse(run.out)).toMatchObject({ verdicts: 6, na: 0 })
  })

  it('a wrong base URL or an unknown capability is refused with a clear message', async () => {
    const { file } = savedWorkspace(dir(), 1, 1)
    const bad = await cli(judgeArgs(file, small(), 'faaf-tf', '--capabilities', 'telepathy'))
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('unknown capability "telepathy"')
    const nowhere = { provider: 'openai-compatible', model: 'm', baseUrl: `${fake.anthropicUrl}/nope` }
    const wrong = await cli(['models', 'probe', '--workspace', file, ...modelFlags(nowhere)])
    expect(wrong.code).toBe(1)
    expect(wrong.err).toContain('check the base URL')
  })
})

it("the model panel's Detect records what the server honours and says so per capability", async () => {
  const { file } = savedWorkspace(dir(), 1, 1)
  const { value, call } = openApp(file)
  const out = await value<{
    model: { capabilities: Record<string, unknown>; priceInputPerMTok: number }
    results: { capability: string; honoured: boolean; detail: string }[]
  }>('judges.detectModel', { provider: 'openai-compatible', model: 'small-local', baseUrl: fake.openaiUrl })
  expect(out.results.map((r) => [r.capability, r.honoured])).toEqual([
    ['tools', false],
    ['forcedToolChoice', false],
    ['strictSchema', false],
    ['jsonMode', false],
    ['jsonSchema', true],
  ])
  expect(out.results[0]?.detail).toBe('refused (HTTP 400)')
  const stored = await value<{ capabilities: Record<string, unknown> }>('judges.model', {
    provider: 'openai-compatible',
    model: 'small-local',
    baseUrl: fake.openaiUrl,
  })
  expect(stored.capabilities).toMatchObject({ jsonSchema: true, tools: false, forcedToolChoice: false })
  const anthropic = await call('judges.detectModel', { provider: 'anthropic', model: 'c', baseUrl: '' })
  expect(anthropic).toMatchObject({ ok: false, error: { code: 'failed' } })
  // OpenAI without a key: said as a run would say it, before anything goes out.
  const saved = process.env.OPENAI_API_KEY
  delete process.env.OPENAI_API_KEY
  try {
    const requests = fake.requests.length
    const openai = await call('judges.detectModel', {
      provider: 'openai',
      model: 'gpt-x',
      baseUrl: fake.openaiUrl,
    })
    expect(openai).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('No API key for openai') },
    })
    expect(fake.requests.length).toBe(requests)
  } finally {
    if (saved !== undefined) process.env.OPENAI_API_KEY = saved
  }
})
