import { describe, expect, it } from 'vitest'
import { METHODS } from '../../src/main/judges/registry'
import type { JudgeMethod } from '../../src/shared/domain'
import { FAAF_SCHEMA, toBinary } from '../../src/shared/labelSchemas'
import { scriptedCtx, targets, task, textReply, toolReply } from './scripted'

const facts = (n: number) =>
  targets(
    'fact',
    Array.from({ length: n }, (_, i) => `Fact number ${i} holds.`),
  )

describe('FaaF: calls', () => {
  it.each([1, 6, 40])('makes exactly one call for a candidate with %i facts', async (n) => {
    const { ctx, calls } = scriptedCtx(() =>
      toolReply(Object.fromEntries(Array.from({ length: n }, (_, i) => [`fact_${i}`, 'true']))),
    )
    const out = await METHODS['faaf-tf'].judge(task(facts(n)), ctx)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.key).toBe('faaf:42:0')
    expect(out).toHaveLength(n)
    expect(out.every((o) => o.status === 'ok' && o.verdict === 'true')).toBe(true)
  })

  it('puts every fact in the tool, each described by its text, and the passage in the prompt', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({ fact_0: 'true', fact_1: 'false' }))
    await METHODS['faaf-tfn'].judge(
      task(targets('fact', ['Shakespeare wrote Hamlet.', 'Hamlet is a novel.'])),
      ctx,
    )
    const req = calls[0]!.request
    const props = req.tool!.parameters.properties as Record<string, { description: string; enum: string[] }>
    expect(props.fact_0!.description).toBe('Shakespeare wrote Hamlet.')
    expect(props.fact_1!.enum).toEqual(['true', 'false', 'not_clear'])
    expect(req.messages[0]!.content).toContain('William Shakespeare wrote Hamlet.')
    expect(req.messages[0]!.content).toContain('Who wrote Hamlet?')
  })

  it('splits into as few, evenly sized calls as the schema limit allows', async () => {
    const { ctx, calls } = scriptedCtx(
      (_k, req) =>
        toolReply(
          Object.fromEntries(Object.keys(req.tool!.parameters.properties as object).map((k) => [k, 'false'])),
        ),
      { capabilities: { maxSchemaProperties: 10 } },
    )
    const out = await METHODS['faaf-tf'].judge(task(facts(25)), ctx)
    expect(calls.map((c) => c.key)).toEqual(['faaf:42:0', 'faaf:42:1', 'faaf:42:2'])
    expect(calls.map((c) => Object.keys(c.request.tool!.parameters.properties as object).length)).toEqual([
      9, 8, 8,
    ])
    expect(out.map((o) => o.targetId)).toEqual(facts(25).map((t) => t.targetId))
    expect(out.every((o) => o.verdict === 'false')).toBe(true)
  })

  it('counts citation arguments against the property limit and enum values against the enum limit', async () => {
    const echo = scriptedCtx((_k, req) =>
      toolReply(
        Object.fromEntries(
          Object.keys(req.tool!.parameters.properties as object).map((k) => [
            k,
            k.startsWith('fact') ? 'true' : null,
          ]),
        ),
      ),
    )
    echo.ctx.capabilities = { ...echo.ctx.capabilities, maxSchemaProperties: 10 }
    await METHODS['faaf-tf-cite'].judge(task(facts(10)), echo.ctx)
    expect(echo.calls).toHaveLength(2) // 10 facts × 2 properties, 10 per schema

    const byEnum = scriptedCtx((_k, req) =>
      toolReply(
        Object.fromEntries(Object.keys(req.tool!.parameters.properties as object).map((k) => [k, 'true'])),
      ),
    )
    byEnum.ctx.capabilities = { ...byEnum.ctx.capabilities, maxEnumValues: 9 }
    await METHODS['faaf-tfn'].judge(task(facts(7)), byEnum.ctx)
    expect(byEnum.calls).toHaveLength(3) // 3 values per fact → 3 facts per call
  })

  it('makes no call for a candidate without facts', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({}))
    expect(await METHODS['faaf-tf'].judge(task([]), ctx)).toEqual([])
    expect(calls).toHaveLength(0)
  })
})

describe('FaaF: classification of replies', () => {
  const three = () => targets('fact', ['A.', 'B.', 'C.'])
  const run = async (
    reply: ReturnType<typeof toolReply> | { error: string },
    method: JudgeMethod = 'faaf-tfn',
  ) => {
    const { ctx, calls } = scriptedCtx(() => reply)
    return { out: await METHODS[method].judge(task(three()), ctx), calls }
  }

  it('keeps not_clear as the verdict; the schema maps it to unsupported', async () => {
    const { out } = await run(toolReply({ fact_0: 'true', fact_1: 'false', fact_2: 'not_clear' }))
    expect(out.map((o) => [o.status, o.verdict])).toEqual([
      ['ok', 'true'],
      ['ok', 'false'],
      ['ok', 'not_clear'],
    ])
    expect(toBinary(FAAF_SCHEMA, out[2]!.verdict)).toBe('unsupported')
  })

  it('invalid JSON makes every fact N/A, with one call only', async () => {
    const { out, calls } = await run(toolReply('{"fact_0": "true", '))
    expect(calls).toHaveLength(1)
    expect(out.map((o) => [o.status, o.problem])).toEqual(
      Array(3).fill(['na', 'arguments are not valid JSON']),
    )
  })

  it('a missing argument fails the whole call: every fact N/A, the reason naming the one missing', async () => {
    const { out } = await run(toolReply({ fact_0: 'true', fact_2: 'false' }))
    expect(out).toHaveLength(3)
    expect(out.map((o) => [o.status, o.verdict])).toEqual(Array(3).fill(['na', null]))
    expect(out[0]!.problem).toBe(
      'the call failed validation, so all 3 facts in it are N/A (no verdict for fact 1)',
    )
  })

  it('a null or out-of-enum verdict fails the whole call, naming every argument at fault', async () => {
    const { out } = await run(toolReply({ fact_0: 'maybe', fact_1: null, fact_2: 'true' }), 'faaf-tf')
    expect(out.map((o) => o.status)).toEqual(['na', 'na', 'na'])
    expect(out[2]!.problem).toBe(
      'the call failed validation, so all 3 facts in it are N/A (fact 0: "maybe" is not one of "true", "false"; fact 1: null is not one of "true", "false")',
    )
    expect(out[2]!.detail).toMatchObject({ field: 'fact_2', invalidArguments: ['fact_0', 'fact_1'] })
  })

  it('read per field (a config choice), only the invalid arguments are N/A', async () => {
    const { ctx } = scriptedCtx(() => toolReply({ fact_0: 'maybe', fact_1: null, fact_2: 'true' }), {
      settings: { naScope: 'field' },
    })
    const out = await METHODS['faaf-tf'].judge(task(three()), ctx)
    expect(out[0]!.status).toBe('na')
    expect(out[0]!.problem).toBe('fact 0: "maybe" is not one of "true", "false"')
    expect(out[1]!.problem).toBe('fact 1: null is not one of "true", "false"')
    expect(out[2]!.verdict).toBe('true')
  })

  it('extra arguments are ignored but noted', async () => {
    const { out } = await run(
      toolReply({ fact_0: 'true', fact_1: 'true', fact_2: 'true', fact_3: 'false', note: 'x' }),
    )
    expect(out.every((o) => o.status === 'ok')).toBe(true)
    expect(out[0]!.detail?.extraArguments).toEqual(['fact_3', 'note'])
  })

  it('prose instead of a function call makes every fact N/A', async () => {
    const { out } = await run(textReply('All three statements are true.'))
    expect(out.map((o) => o.problem)).toEqual(
      Array(3).fill('the model answered in prose instead of calling the function'),
    )
  })

  it('arguments that are not an object are N/A', async () => {
    const { out } = await run(toolReply('["true","false","true"]'))
    expect(out[0]!.problem).toBe('arguments are not a JSON object')
  })

  it('a transport failure after retries is an error, not a verdict', async () => {
    const { out } = await run({ error: '429 Too Many Requests (retries exhausted)' })
    expect(out.map((o) => [o.status, o.verdict, o.problem])).toEqual(
      Array(3).fill(['error', null, '429 Too Many Requests (retries exhausted)']),
    )
  })

  it('reads the JSON-in-text fallback through the same schema', async () => {
    const { out } = await run(toolReply({ fact_0: 'false', fact_1: 'not_clear', fact_2: 'wrong' }, true))
    expect(out.map((o) => o.verdict)).toEqual([null, null, null])
    expect(out[0]!.problem).toContain('fact 2: "wrong" is not one of')
    expect(out[0]!.detail?.viaFallback).toBe(true)
    const { out: valid } = await run(
      toolReply({ fact_0: 'false', fact_1: 'not_clear', fact_2: 'true' }, true),
    )
    expect(valid.map((o) => o.verdict)).toEqual(['false', 'not_clear', 'true'])
  })
})

describe('FaaF: citations', () => {
  it('stores each citation with its verdict and turns an empty citation into null', async () => {
    const { ctx } = scriptedCtx(() =>
      toolReply({
        citation_0: 'William Shakespeare wrote Hamlet',
        fact_0: 'true',
        citation_1: '',
        fact_1: 'false',
      }),
    )
    const out = await METHODS['faaf-tfn-cite'].judge(task(targets('fact', ['A.', 'B.'])), ctx)
    expect(out.map((o) => [o.verdict, o.citation])).toEqual([
      ['true', 'William Shakespeare wrote Hamlet'],
      ['false', null],
    ])
  })

  it('a citation of the wrong type fails the call like any invalid argument', async () => {
    const { ctx } = scriptedCtx(() =>
      toolReply({ citation_0: 12, fact_0: 'true', citation_1: null, fact_1: 'true' }),
    )
    const out = await METHODS['faaf-tf-cite'].judge(task(targets('fact', ['A.', 'B.'])), ctx)
    expect(out.map((o) => o.status)).toEqual(['na', 'na'])
    expect(out[1]!.problem).toBe(
      'the call failed validation, so all 2 facts in it are N/A (citation_0: 12 is not a string or null)',
    )
  })

  it('read per field, keeps the verdict when a citation has the wrong type, and notes it', async () => {
    const { ctx } = scriptedCtx(() => toolReply({ citation_0: 12, fact_0: 'true' }), {
      settings: { naScope: 'field' },
    })
    const [o] = await METHODS['faaf-tf-cite'].judge(task(targets('fact', ['A.'])), ctx)
    expect(o!.verdict).toBe('true')
    expect(o!.citation).toBeNull()
    expect(o!.detail?.citationProblem).toBe('citation_0: 12 is not a string or null')
  })
})

describe('FaaF: repair retry', () => {
  it('is off by default: a format failure is final after one call', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({ fact_0: 'true' }))
    const out = await METHODS['faaf-tf'].judge(task(targets('fact', ['A.', 'B.'])), ctx)
    expect(calls).toHaveLength(1)
    expect(out[1]!.status).toBe('na')
  })

  it('when enabled, re-asks once and takes the whole repaired call in place of the failed one', async () => {
    const { ctx, calls } = scriptedCtx(
      (key) =>
        key.endsWith(':repair')
          ? toolReply({ fact_0: 'false', fact_1: 'false' })
          : toolReply({ fact_0: 'true' }),
      { settings: { repairRetry: true } },
    )
    const out = await METHODS['faaf-tf'].judge(task(targets('fact', ['A.', 'B.'])), ctx)
    expect(calls.map((c) => c.key)).toEqual(['faaf:42:0', 'faaf:42:0:repair'])
    const followUp = calls[1]!.request.messages.at(-1)!.content
    // Said once, though both facts carry it.
    expect(followUp.split('no verdict for fact 1')).toHaveLength(2)
    expect(out.map((o) => [o.verdict, o.detail?.repair ?? false])).toEqual([
      ['false', true],
      ['false', true],
    ])
  })

  it('read per field and enabled, re-asks once with the problem and marks repaired verdicts', async () => {
    const { ctx, calls } = scriptedCtx(
      (key) =>
        key.endsWith(':repair')
          ? toolReply({ fact_0: 'false', fact_1: 'false' })
          : toolReply({ fact_0: 'true' }),
      { settings: { repairRetry: true, naScope: 'field' } },
    )
    const out = await METHODS['faaf-tf'].judge(task(targets('fact', ['A.', 'B.'])), ctx)
    expect(calls.map((c) => c.key)).toEqual(['faaf:42:0', 'faaf:42:0:repair'])
    expect(calls[1]!.request.messages.at(-1)!.content).toContain('no verdict for fact 1')
    // The first answer stands where it was valid; only the N/A is replaced.
    expect(out.map((o) => [o.verdict, o.detail?.repair ?? false])).toEqual([
      ['true', false],
      ['false', true],
    ])
  })

  it('reports both problems when the repair also fails', async () => {
    const { ctx } = scriptedCtx((key) => (key.endsWith(':repair') ? textReply('sorry') : toolReply('nope')), {
      settings: { repairRetry: true },
    })
    const [o] = await METHODS['faaf-tf'].judge(task(targets('fact', ['A.'])), ctx)
    expect(o!.status).toBe('na')
    expect(o!.problem).toBe(
      'arguments are not valid JSON; after the repair retry: the model answered in prose instead of calling the function',
    )
  })
})
