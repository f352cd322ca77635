import { describe, expect, it } from 'vitest'
import { noLlmReachable } from '../../src/renderer/src/views/judges/llmReach'

const noKey = [
  { provider: 'openai', hasKey: false },
  { provider: 'anthropic', hasKey: false },
  { provider: 'openai-compatible', hasKey: false },
  { provider: 'lexical', hasKey: false },
]

describe('the Judges view’s "No API key is set" hint', () => {
  it('shows with no key and no local server config, so a new config starts as the lexical baseline', () => {
    expect(noLlmReachable(noKey, [])).toBe(true)
    expect(noLlmReachable(noKey, [{ provider: 'lexical' }])).toBe(true)
  })

  it('goes once an openai-compatible config exists: a local server needs no key', () => {
    expect(noLlmReachable(noKey, [{ provider: 'lexical' }, { provider: 'openai-compatible' }])).toBe(false)
  })

  it('goes once openai or anthropic has a key', () => {
    const keyed = noKey.map((p) => (p.provider === 'anthropic' ? { ...p, hasKey: true } : p))
    expect(noLlmReachable(keyed, [])).toBe(false)
  })
})
