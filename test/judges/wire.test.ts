import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { METHODS } from '../../src/main/judges/registry'
import { type JudgeContext, type MethodSettings, requestOf } from '../../src/main/judges/types'
import { createProvider, type ProviderName } from '../../src/main/providers'
import { sendAtOnce } from '../../src/main/providers/client'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { type FakeReply, type FakeRequest, type FakeServer, startFakeLlm } from '../fake-llm/server'
import { targets, task } from './scripted'

/**
 * FaaF and DCR through the real provider adapters and SDKs, against the wire-level fake: the
 * method's schema reaches the wire as a forced tool (or as the JSON-in-text fallback), and what
 * comes back is classified the same way on every wire format.
 */
let fake: FakeServer
let script: (req: FakeRequest) => FakeReply = () => ({ kind: 'empty' })
beforeAll(async () => {
  fake = await startFakeLlm({ script: (req) => script(req) })
})
afterAll(() => fake.close())

function wireCtx(provider: Exclude<ProviderName, 'lexical'>, settings: MethodSettings = {}): JudgeContext {
  const capabilities = DEFAULT_CAPABILITIES[provider]
  const client = createProvider({
    provider,
    model: 'fake-model',
    baseUrl: provider === 'anthropic' ? fake.anthropicUrl : fake.openaiUrl,
    apiKey: 'sk-test-not-a-real-key',
    capabilities,
    timeoutMs: 5_000,
  })
  return {
    settings,
    templates: {},
    capabilities,
    async call(_key, build) {
      try {
        return {
          ok: true,
          reply: await client.complete(requestOf(build), AbortSignal.timeout(10_000), sendAtOnce),
        }
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) }
      }
    },
  }
}

/** Answers a FaaF-shaped request the way a model would, as a tool call or as JSON in text. */
function reply(req: FakeRequest, args: Record<string, unknown>): FakeReply {
  if (req.inText) return { kind: 'text', text: `Here you go:\n\`\`\`json\n${JSON.stringify(args)}\n\`\`\`` }
  return { kind: 'tool', arguments: args }
}

const facts = () =>
  targets('fact', ['Shakespeare wrote Hamlet.', 'Hamlet is set in Denmark.', 'Hamlet is a novel.'])
const PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const

describe.each(PROVIDERS)('FaaF over the %s wire', (provider) => {
  it('sends one request carrying every fact, citations first, and classifies each argument', async () => {
    const before = fake.requests.length
    script = (req) =>
      reply(req, {
        citation_0: 'William Shakespeare wrote Hamlet',
        fact_0: 'true',
        citation_1: null,
        fact_1: 'not_clear',
        fact_2: 'perhaps',
      })
    const out = await METHODS['faaf-tfn-cite'].judge(task(facts()), wireCtx(provider))
    const sent = fake.requests.slice(before)
    expect(sent).toHaveLength(1)
    expect(Object.keys(sent[0]!.schema!.properties!)).toEqual([
      'citation_0',
      'fact_0',
      'citation_1',
      'fact_1',
      'citation_2',
      'fact_2',
    ])
    expect(sent[0]!.inText).toBe(provider === 'openai-compatible')
    if (provider !== 'openai-compatible') expect(sent[0]!.toolName).toBe('record_fact_checks')
    // The paper's rule: one argument out of the enum fails the call, so none of its facts counts.
    expect(out.map((o) => [o.status, o.verdict])).toEqual(Array(3).fill(['na', null]))
    expect(out[0]!.problem).toBe(
      'the call failed validation, so all 3 facts in it are N/A (fact 2: "perhaps" is not one of "true", "false", "not_clear")',
    )
    expect(out[1]!.detail?.invalidArguments).toEqual(['fact_2'])
  })

  it('keeps the valid arguments of the same reply when the config reads per field', async () => {
    script = (req) =>
      reply(req, {
        citation_0: 'William Shakespeare wrote Hamlet',
        fact_0: 'true',
        citation_1: null,
        fact_1: 'not_clear',
        fact_2: 'perhaps',
      })
    const out = await METHODS['faaf-tfn-cite'].judge(task(facts()), wireCtx(provider, { naScope: 'field' }))
    expect(out.map((o) => [o.status, o.verdict, o.citation ?? null])).toEqual([
      ['ok', 'true', 'William Shakespeare wrote Hamlet'],
      ['ok', 'not_clear', null],
      ['na', null, null],
    ])
    expect(out[2]!.problem).toBe('fact 2: "perhaps" is not one of "true", "false", "not_clear"')
  })

  it('classifies prose and empty replies as N/A, a server error as an error', async () => {
    script = () => ({ kind: 'text', text: 'I think they are all true.' })
    const prose = await METHODS['faaf-tf'].judge(task(facts()), wireCtx(provider))
    expect(prose.every((o) => o.status === 'na')).toBe(true)
    expect(prose[0]!.problem).toBe(
      provider === 'openai-compatible'
        ? 'the reply contained no JSON object'
        : 'the model answered in prose instead of calling the function',
    )

    script = () => ({ kind: 'empty' })
    const empty = await METHODS['faaf-tf'].judge(task(facts()), wireCtx(provider))
    expect(empty.every((o) => o.status === 'na')).toBe(true)

    script = () => ({ kind: 'status', status: 500 })
    const failed = await METHODS['faaf-tf'].judge(task(facts()), wireCtx(provider))
    expect(failed.map((o) => o.status)).toEqual(['error', 'error', 'error'])
  })
})

describe('FaaF over the openai wire: OpenAI-specific shape', () => {
  it('asks for a strict, forced function call and reports invalid JSON arguments as N/A', async () => {
    const before = fake.requests.length
    script = () => ({ kind: 'tool', arguments: '{"fact_0": "tru' })
    const out = await METHODS['faaf-tf'].judge(task(facts()), wireCtx('openai'))
    const body = fake.requests[before]!.body as {
      tools: { function: { strict?: boolean } }[]
      tool_choice: unknown
    }
    expect(body.tools[0]!.function.strict).toBe(true)
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'record_fact_checks' } })
    expect(out.map((o) => o.problem)).toEqual(Array(3).fill('arguments are not valid JSON'))
  })
})

const sentences = () => targets('sentence', ['Hamlet is a play.', 'It was written by Marlowe.'], 300)

describe.each(PROVIDERS)('DCR over the %s wire', (provider) => {
  it('runs DCE then the LLM AMC and scores the candidate', async () => {
    const before = fake.requests.length
    script = (req) => {
      const props = Object.keys(req.schema?.properties ?? {})
      if (props.includes('marks'))
        return reply(req, {
          marks: [
            { number: 1, mark: '+1' },
            { number: 2, mark: '-1' },
          ],
        })
      return reply(req, {
        sentences: [
          { number: 1, reason: 'The reference calls it a play.', decision: 'consistent' },
          { number: 2, reason: 'The reference names Shakespeare.', decision: 'inconsistent' },
        ],
      })
    }
    const out = await METHODS.dcr.judge(
      task(sentences(), { candidate: 'Hamlet is a play. It was written by Marlowe.' }),
      wireCtx(provider, { amcLlm: true }),
    )
    expect(fake.requests.length - before).toBe(2)
    expect(fake.requests[before]!.userText).toContain('2. It was written by Marlowe.')
    expect(out.map((o) => [o.status, o.verdict, o.reason])).toEqual([
      ['ok', 'consistent', 'The reference calls it a play.'],
      ['ok', 'inconsistent', 'The reference names Shakespeare.'],
    ])
    expect(out[0]!.detail?.dcr).toEqual({ z: 0, rescaled: 0.5, n: 2, sum: 0 })
  })

  it('leaves a sentence the model skipped as N/A', async () => {
    script = (req) =>
      reply(req, { sentences: [{ number: 2, reason: 'Wrong author.', decision: 'inconsistent' }] })
    const out = await METHODS.dcr.judge(task(sentences()), wireCtx(provider))
    expect(out.map((o) => [o.status, o.problem ?? o.verdict])).toEqual([
      ['na', 'no decision for sentence 1'],
      ['ok', 'inconsistent'],
    ])
  })
})

describe.each(PROVIDERS)('Prompt(T/F) over the %s wire', (provider) => {
  it('sends no tool and reads the text reply, one request per fact', async () => {
    const before = fake.requests.length
    const replies = ['True.', 'It is True, not False.', 'False']
    let i = 0
    script = () => ({ kind: 'text', text: replies[i++ % 3]! })
    const out = await METHODS['prompt-tf'].judge(
      task(facts()),
      wireCtx(provider, { parseMode: 'word-match' }),
    )
    const sent = fake.requests.slice(before)
    expect(sent).toHaveLength(3)
    expect(sent.every((r) => r.schema === null && r.toolName === null)).toBe(true)
    // Concurrent calls may be answered in any order; count the outcomes instead.
    expect(out.filter((o) => o.status === 'na').map((o) => o.problem)).toEqual([
      'ambiguous reply: contains both "true" and "false"',
    ])
    expect(
      out
        .filter((o) => o.status === 'ok')
        .map((o) => o.verdict)
        .sort(),
    ).toEqual(['false', 'true'])
  })
})
