import { describe, expect, it } from 'vitest'
import { GENERATORS } from '../../src/main/generate'
import { onePerTarget } from '../../src/main/judges/common'
import { METHOD_TEMPLATES, METHODS, previewRequests } from '../../src/main/judges/registry'
import { DEFAULT_CAPABILITIES } from '../../src/main/providers/types'
import { GENERATE_METHODS, JUDGE_METHODS } from '../../src/shared/domain'
import { PRESET_SCHEMAS } from '../../src/shared/labelSchemas'
import { targets, task } from './scripted'

describe('registry', () => {
  it('has one implementation per contract method and generator, under its own name', () => {
    expect(Object.keys(METHODS).sort()).toEqual([...JUDGE_METHODS].sort())
    for (const m of JUDGE_METHODS) expect(METHODS[m].name).toBe(m)
    for (const g of GENERATE_METHODS) expect(GENERATORS[g].name).toBe(g)
  })

  it('names a known label schema for every LLM method', () => {
    for (const m of JUDGE_METHODS) {
      if (m === 'lexical') expect(METHODS[m].schema).toBe('dataset')
      else expect(Object.keys(PRESET_SCHEMAS)).toContain(METHODS[m].schema)
    }
  })
})

describe('one outcome per target', () => {
  it('fills targets a method forgot with N/A and drops strays and duplicates, in target order', () => {
    const t = targets('fact', ['a', 'b', 'c'])
    const out = onePerTarget(t, [
      { targetId: 102, status: 'ok', verdict: 'true' },
      { targetId: 999, status: 'ok', verdict: 'true' },
      { targetId: 100, status: 'ok', verdict: 'false' },
      { targetId: 100, status: 'ok', verdict: 'true' },
    ])
    expect(out.map((o) => [o.targetId, o.status, o.verdict])).toEqual([
      [100, 'ok', 'false'],
      [101, 'na', null],
      [102, 'ok', 'true'],
    ])
    expect(out[1]!.problem).toBe('the judge returned no verdict for this target')
  })
})

describe('previewRequests', () => {
  const ctx = { settings: {}, templates: {}, capabilities: DEFAULT_CAPABILITIES.anthropic }

  it('shows the exact request FaaF would send, without sending it', async () => {
    const calls = await previewRequests('faaf-tfn-cite', task(targets('fact', ['A.', 'B.'])), ctx)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.key).toBe('faaf:42:0')
    expect(Object.keys(calls[0]!.request.tool!.parameters.properties as object)).toEqual([
      'citation_0',
      'fact_0',
      'citation_1',
      'fact_1',
    ])
  })

  it('lists only the first-round calls of multi-step methods', async () => {
    const calls = await previewRequests('dcr', task(targets('sentence', ['One.', 'Two.'])), {
      ...ctx,
      settings: { amcLlm: true },
    })
    expect(calls.map((c) => c.key)).toEqual(['dcr-dce:42'])
    expect(METHOD_TEMPLATES.dcr).toContain('dcr.amc')
  })
})
