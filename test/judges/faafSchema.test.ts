import { describe, expect, it } from 'vitest'
import { evenChunks } from '../../src/main/judges/common'
import { buildVerdictSchema, maxStatementsPerCall, verdictTool } from '../../src/main/judges/faafSchema'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'

describe('FaaF tool schema', () => {
  const built = buildVerdictSchema({
    prefix: 'fact',
    texts: ['Paris is the capital of France.', 'The Seine flows through Paris.'],
    values: ['true', 'false', 'not_clear'],
    citation: true,
  })
  const params = verdictTool(built, 'record_fact_checks', 'd').parameters

  it('lists each citation argument right before its verdict argument', () => {
    expect(Object.keys(params.properties as object)).toEqual(['citation_0', 'fact_0', 'citation_1', 'fact_1'])
  })

  it('is strict-compatible: every argument required, nothing else allowed, no $schema', () => {
    expect(params.type).toBe('object')
    expect(params.required).toEqual(['citation_0', 'fact_0', 'citation_1', 'fact_1'])
    expect(params.additionalProperties).toBe(false)
    expect(params).not.toHaveProperty('$schema')
  })

  it('describes each verdict by its fact and restricts it to the schema values; citations are nullable strings', () => {
    const props = params.properties as Record<string, Record<string, unknown>>
    expect(props.fact_1).toEqual({
      type: 'string',
      enum: ['true', 'false', 'not_clear'],
      description: 'The Seine flows through Paris.',
    })
    expect(props.citation_0!.type).toEqual(['string', 'null'])
    expect(String(props.citation_0!.description)).toContain('fact_0')
  })

  it('without citations has only the verdict arguments', () => {
    const plain = buildVerdictSchema({
      prefix: 'claim',
      texts: ['x', 'y', 'z'],
      values: ['a', 'b'],
      citation: false,
    })
    expect(Object.keys(verdictTool(plain, 't', 'd').parameters.properties as object)).toEqual([
      'claim_0',
      'claim_1',
      'claim_2',
    ])
  })
})

describe('schema limits', () => {
  it('fits as many statements as properties and enum values allow', () => {
    const caps = { ...DEFAULT_CAPABILITIES.openai, maxSchemaProperties: 100, maxEnumValues: 500 }
    expect(maxStatementsPerCall(caps, 2, false)).toBe(100)
    expect(maxStatementsPerCall(caps, 2, true)).toBe(50)
    expect(maxStatementsPerCall({ ...caps, maxEnumValues: 150 }, 3, false)).toBe(50)
    expect(maxStatementsPerCall({ ...caps, maxSchemaProperties: 1 }, 2, true)).toBe(1)
  })

  it('splits into the fewest chunks with sizes differing by at most one', () => {
    const sizes = (n: number, max: number) =>
      evenChunks(
        Array.from({ length: n }, (_, i) => i),
        max,
      ).map((c) => c.length)
    expect(sizes(25, 10)).toEqual([9, 8, 8])
    expect(sizes(10, 10)).toEqual([10])
    expect(sizes(11, 10)).toEqual([6, 5])
    expect(sizes(0, 10)).toEqual([])
    expect(evenChunks([1, 2, 3, 4, 5], 2).flat()).toEqual([1, 2, 3, 4, 5])
  })
})
