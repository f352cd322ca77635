import { describe, expect, it } from 'vitest'
import { parseTrueFalse } from '../../src/main/judges/promptTf'
import { METHODS } from '../../src/main/judges/registry'
import { scriptedCtx, targets, task, textReply, toolReply } from './scripted'

describe('parseTrueFalse', () => {
  it.each([
    ['True', 'true'],
    ['false.', 'false'],
    ['The statement is TRUE according to the passage.', 'true'],
    ['**False** — the passage says otherwise', 'false'],
  ])('word-match reads %j as %s', (reply, verdict) => {
    expect(parseTrueFalse(reply, 'word-match')).toEqual({ ok: true, verdict })
  })

  it('word-match calls a reply with both words ambiguous', () => {
    expect(parseTrueFalse('True. Wait, no: false.', 'word-match')).toEqual({
      ok: false,
      problem: 'ambiguous reply: contains both "true" and "false"',
    })
  })

  it('word-match does not match parts of words', () => {
    expect(parseTrueFalse('That is untrue and falsehood', 'word-match')).toEqual({
      ok: false,
      problem: 'the reply contains neither "true" nor "false"',
    })
  })

  it('strict only accepts the verdict as the first word', () => {
    expect(parseTrueFalse('  "False", because ... true', 'strict')).toEqual({ ok: true, verdict: 'false' })
    expect(parseTrueFalse('The answer is True', 'strict')).toEqual({
      ok: false,
      problem: 'the reply does not start with True or False (it starts with "the")',
    })
    expect(parseTrueFalse('', 'strict')).toEqual({ ok: false, problem: 'the reply was empty' })
    expect(parseTrueFalse(null, 'word-match')).toEqual({ ok: false, problem: 'the reply was empty' })
  })
})

describe('prompt-tf method', () => {
  const three = targets('fact', [
    'Shakespeare wrote Hamlet.',
    'Hamlet was written in 1900.',
    'Hamlet is a play.',
  ])

  it('makes one call per fact, keyed by target, each asking about one fact', async () => {
    const { ctx, calls } = scriptedCtx((_k, req) =>
      textReply(req.messages[0]!.content.includes('1900') ? 'False' : 'True'),
    )
    const out = await METHODS['prompt-tf'].judge(task(three), ctx)
    expect(calls.map((c) => c.key).sort()).toEqual(['prompt-tf:100', 'prompt-tf:101', 'prompt-tf:102'])
    expect(calls.every((c) => c.request.tool === undefined)).toBe(true)
    expect(out.map((o) => o.verdict)).toEqual(['true', 'false', 'true'])
  })

  it('classifies each reply by the configured parse mode, one outcome per fact', async () => {
    const replies = ['True, and not false', 'The statement is true', 'no idea']
    const wordMatch = scriptedCtx((_k, _r, i) => textReply(replies[i]!))
    const wm = await METHODS['prompt-tf'].judge(task(three), wordMatch.ctx)
    expect(wm.map((o) => [o.status, o.verdict])).toEqual([
      ['na', null],
      ['ok', 'true'],
      ['na', null],
    ])
    expect(wm[0]!.problem).toMatch(/ambiguous/)

    const strict = scriptedCtx((_k, _r, i) => textReply(replies[i]!), { settings: { parseMode: 'strict' } })
    const st = await METHODS['prompt-tf'].judge(task(three), strict.ctx)
    expect(st.map((o) => [o.status, o.verdict])).toEqual([
      ['ok', 'true'],
      ['na', null],
      ['na', null],
    ])
  })

  it('records transport failures as errors and a tool-only reply as empty', async () => {
    const { ctx } = scriptedCtx((_k, _r, i) =>
      i === 0 ? { error: 'timeout after 30 s' } : toolReply({ x: 1 }),
    )
    const out = await METHODS['prompt-tf'].judge(task(three.slice(0, 2)), ctx)
    expect(out.map((o) => [o.status, o.problem])).toEqual([
      ['error', 'timeout after 30 s'],
      ['na', 'the reply was empty'],
    ])
  })
})
