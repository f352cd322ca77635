import { describe, expect, it } from 'vitest'
import { newConfigStart } from '../../src/renderer/src/views/judges/newConfigStart'

const config = (
  id: number,
  provider: 'openai' | 'anthropic' | 'openai-compatible' | 'lexical',
  baseUrl: string | null = null,
) => ({
  id,
  provider,
  baseUrl,
})

describe('a new judge config starts from the provider last used', () => {
  it('starts as the newest config’s provider, with a local server’s base URL', () => {
    expect(
      newConfigStart(
        [config(1, 'openai'), config(2, 'openai-compatible', 'http://localhost:11434/v1')],
        null,
      ),
    ).toEqual({ provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' })
  })

  it('follows the config saved last in this visit, even an older one', () => {
    const configs = [config(3, 'anthropic'), config(7, 'openai-compatible', 'http://127.0.0.1:8000/v1')]
    expect(newConfigStart(configs, 3)).toEqual({ provider: 'anthropic', baseUrl: null })
  })

  it('passes over the lexical baseline, and keeps the usual start without any LLM config', () => {
    expect(newConfigStart([config(1, 'anthropic'), config(2, 'lexical')], 2)).toEqual({
      provider: 'anthropic',
      baseUrl: null,
    })
    expect(newConfigStart([config(2, 'lexical')], null)).toBeNull()
    expect(newConfigStart([], null)).toBeNull()
  })
})
