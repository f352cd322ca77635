import type { Message } from '@anthropic-ai/sdk/resources/messages'
import type { ChatCompletion } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { toLlmReply, turnsFor } from '../../src/main/providers/adapter'
import { anthropicReply } from '../../src/main/providers/anthropic'
import { openAiReply } from '../../src/main/providers/openai'
import type { LlmRequest } from '../../src/main/providers/types'

const tool = { name: 'verdicts', description: 'Verdicts', parameters: { type: 'object' } }
const req: LlmRequest = {
  messages: [
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: 'judge this' },
  ],
  tool,
}

describe('shared adapter rules', () => {
  it('asks for JSON in the last turn only when the tool cannot be forced', () => {
    expect(turnsFor(req, true).map((m) => m.content)).toEqual(['first', 'ok', 'judge this'])
    const fallback = turnsFor(req, false)
    expect(fallback.slice(0, 2).map((m) => m.content)).toEqual(['first', 'ok'])
    expect(fallback[2]?.content.startsWith('judge this\n\n')).toBe(true)
    expect(fallback[2]?.content.length).toBeGreaterThan('judge this\n\n'.length)
    expect(turnsFor({ messages: req.messages }, false).map((m) => m.content)).toEqual([
      'first',
      'ok',
      'judge this',
    ])
  })

  it('takes arguments from a real tool call, or from JSON in the text on the fallback', () => {
    const wire = {
      text: 'Here: {"fact_0": "true"}',
      toolCallArguments: '{"fact_0": "false"}',
      finishReason: 'stop',
      promptTokens: 12,
      completionTokens: 3,
      raw: null,
    }
    expect(toLlmReply(wire, true, true)).toMatchObject({
      toolArguments: '{"fact_0": "false"}',
      viaFallback: false,
      usage: { promptTokens: 12, completionTokens: 3 },
    })
    expect(toLlmReply(wire, false, true)).toMatchObject({
      toolArguments: '{"fact_0": "true"}',
      viaFallback: true,
    })
    expect(toLlmReply(wire, false, false)).toMatchObject({ toolArguments: null, viaFallback: false })
  })

  it('reads both wire formats into the same reply', () => {
    const anthropic = {
      content: [
        { type: 'text', text: 'Checked.' },
        { type: 'tool_use', id: 't1', name: 'verdicts', input: { fact_0: 'true' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 40, output_tokens: 9 },
    } as unknown as Message
    const openai = {
      choices: [
        {
          finish_reason: 'tool_calls',
          message: {
            content: 'Checked.',
            tool_calls: [
              { type: 'function', id: 'c1', function: { name: 'verdicts', arguments: '{"fact_0":"true"}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 40, completion_tokens: 9 },
    } as unknown as ChatCompletion
    const a = anthropicReply(anthropic, true, true)
    const o = openAiReply(openai, true, true)
    for (const r of [a, o]) {
      expect(r.text).toBe('Checked.')
      expect(JSON.parse(r.toolArguments ?? 'null')).toEqual({ fact_0: 'true' })
      expect(r.usage).toEqual({ promptTokens: 40, completionTokens: 9 })
    }
    expect(
      anthropicReply({ ...anthropic, usage: undefined } as unknown as Message, true, true).usage,
    ).toEqual({
      promptTokens: 0,
      completionTokens: 0,
    })
  })
})
