import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseTrueFalse } from '../../src/main/judges/promptTf'
import { METHODS } from '../../src/main/judges/registry'
import { renderTemplate, TemplateError } from '../../src/main/judges/templates'
import type { LlmReply } from '../../src/main/providers/types'
import type { JudgeMethod } from '../../src/shared/domain'
import { PRESET_SCHEMAS } from '../../src/shared/labelSchemas'
import { scriptedCtx, targets, task } from './scripted'

/**
 * Whatever a model sends back, every method answers with exactly one outcome per target, never
 * throws, and only ever stores verdicts its label schema knows.
 */
const anyReply: fc.Arbitrary<LlmReply> = fc.record({
  text: fc.option(fc.string(), { nil: null }),
  toolArguments: fc.option(
    fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .dictionary(
          fc.constantFrom(
            'fact_0',
            'fact_1',
            'citation_0',
            'claim_0',
            'claim_2',
            'sentences',
            'marks',
            'grade',
            'reasoning',
            'x',
          ),
          fc.oneof(
            fc.constantFrom(
              'true',
              'false',
              'not_clear',
              'entailment',
              'neutral',
              'pass',
              'partially-pass',
              null,
            ),
            fc.array(
              fc.record({
                number: fc.integer({ min: -1, max: 4 }),
                reason: fc.string(),
                decision: fc.string(),
              }),
            ),
            fc.jsonValue(),
          ),
        )
        .map((o) => JSON.stringify(o)),
    ),
    { nil: null },
  ),
  viaFallback: fc.boolean(),
  finishReason: fc.constant('stop'),
  usage: fc.constant({ promptTokens: 1, completionTokens: 1 }),
  raw: fc.constant({}),
})

const CASES: [JudgeMethod, 'fact' | 'triplet' | 'sentence' | 'whole'][] = [
  ['prompt-tf', 'fact'],
  ['faaf-tfn-cite', 'fact'],
  ['refchecker', 'triplet'],
  ['refchecker-batched', 'triplet'],
  ['dcr', 'sentence'],
  ['holistic', 'whole'],
]

describe.each(CASES)('%s on arbitrary replies', (method, kind) => {
  it('returns one known verdict or an N/A with a reason per target', async () => {
    await fc.assert(
      fc.asyncProperty(anyReply, fc.integer({ min: 1, max: 4 }), fc.boolean(), async (reply, n, amcLlm) => {
        const { ctx } = scriptedCtx(() => reply, { settings: { amcLlm } })
        const t = targets(kind, ['one.', 'two.', 'three.', 'four.'].slice(0, n))
        const out = await METHODS[method].judge(task(t), ctx)
        expect(out.map((o) => o.targetId)).toEqual(t.map((x) => x.targetId))
        const schema = PRESET_SCHEMAS[METHODS[method].schema as keyof typeof PRESET_SCHEMAS]
        for (const o of out) {
          if (o.status === 'ok') expect(schema.values).toContain(o.verdict)
          else expect(o.problem).toEqual(expect.any(String))
        }
      }),
      { numRuns: 150 },
    )
  })
})

describe('text parsers and templates on arbitrary input', () => {
  it('parseTrueFalse never throws and a verdict always comes from a whole word', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom('word-match', 'strict') as fc.Arbitrary<'word-match' | 'strict'>,
        (text, mode) => {
          const r = parseTrueFalse(text, mode)
          if (r.ok) expect(text.toLowerCase()).toContain(r.verdict)
        },
      ),
    )
  })

  it('renderTemplate either fills every placeholder or names the missing one', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.dictionary(fc.constantFrom('question', 'fact', 'candidate'), fc.string()),
        (body, vars) => {
          try {
            const out = renderTemplate(body, vars)
            if (!/\{\{\s*[A-Za-z_][\w.-]*\s*\}\}/.test(body)) expect(out).toBe(body)
          } catch (e) {
            expect(e).toBeInstanceOf(TemplateError)
            expect((e as Error).message).toMatch(/uses \{\{/)
          }
        },
      ),
    )
  })
})
