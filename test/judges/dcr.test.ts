import { describe, expect, it } from 'vitest'
import { dcrScore } from '../../src/main/judges/dcr'
import { METHODS } from '../../src/main/judges/registry'
import { scriptedCtx, targets, task, toolReply } from './scripted'

describe('dcrScore', () => {
  it('averages the ±1 marks and rescales to [0, 1]', () => {
    expect(dcrScore([1, 1, -1])).toEqual({ z: 1 / 3, rescaled: 2 / 3, n: 3, sum: 1 })
    expect(dcrScore([1, 1])!.rescaled).toBe(1)
    expect(dcrScore([-1, -1])!.rescaled).toBe(0)
  })
  it('applies α and β: Z = (Σ s − α) / (n − β)', () => {
    expect(dcrScore([1, 1, -1], 1, 1)).toEqual({ z: 0, rescaled: 0.5, n: 3, sum: 1 })
    expect(dcrScore([1, 1, 1, 1], 2, 0)!.z).toBe(0.5)
  })
  it('has no score when there is nothing to divide by', () => {
    expect(dcrScore([])).toBeNull()
    expect(dcrScore([1, -1], 0, 2)).toBeNull()
  })
})

const sentences = () =>
  targets('sentence', ['Hamlet is a play.', 'It was written by Marlowe.', 'It is set in Denmark.'], 300)
const entry = (number: number, decision: string, reason = `reason ${number}`) => ({
  number,
  reason,
  decision,
})

describe('DCE with the deterministic AMC', () => {
  it('makes one call per candidate listing numbered sentences, and maps decisions to ±1', async () => {
    const { ctx, calls } = scriptedCtx(() =>
      toolReply({
        sentences: [
          entry(1, 'consistent'),
          entry(2, 'inconsistent', 'The reference names Shakespeare.'),
          entry(3, 'consistent'),
        ],
      }),
    )
    const out = await METHODS.dcr.judge(task(sentences()), ctx)
    expect(calls.map((c) => c.key)).toEqual(['dcr-dce:42'])
    expect(calls[0]!.request.messages[0]!.content).toContain('2. It was written by Marlowe.')
    expect(out.map((o) => [o.verdict, o.score])).toEqual([
      ['consistent', 1],
      ['inconsistent', -1],
      ['consistent', 1],
    ])
    expect(out[1]!.reason).toBe('The reference names Shakespeare.')
    expect(out[1]!.detail).toMatchObject({ number: 2, decision: 'inconsistent', mark: -1, amc: 'decision' })
    expect(out[0]!.detail?.dcr).toEqual({ z: 1 / 3, rescaled: 2 / 3, n: 3, sum: 1 })
  })

  it('uses α and β from the settings', async () => {
    const { ctx } = scriptedCtx(
      () =>
        toolReply({ sentences: [entry(1, 'consistent'), entry(2, 'inconsistent'), entry(3, 'consistent')] }),
      {
        settings: { alpha: 1, beta: 1 },
      },
    )
    const out = await METHODS.dcr.judge(task(sentences()), ctx)
    expect(out[0]!.detail?.dcr).toMatchObject({ z: 0, rescaled: 0.5 })
  })

  it('a sentence the reply skipped is N/A, and the candidate gets no score', async () => {
    const { ctx } = scriptedCtx(() =>
      toolReply({ sentences: [entry(1, 'consistent'), entry(3, 'inconsistent')] }),
    )
    const out = await METHODS.dcr.judge(task(sentences()), ctx)
    expect(out.map((o) => o.status)).toEqual(['ok', 'na', 'ok'])
    expect(out[1]!.problem).toBe('no decision for sentence 2')
    expect(out[0]!.detail?.dcr).toBeNull()
  })

  it('keeps the first of duplicate answers and notes entries it could not use', async () => {
    const { ctx } = scriptedCtx(() =>
      toolReply({
        sentences: [
          entry(1, 'consistent'),
          entry(1, 'inconsistent'),
          entry(2, 'maybe'),
          entry(3, 'consistent'),
          entry(9, 'consistent'),
        ],
      }),
    )
    const out = await METHODS.dcr.judge(task(sentences()), ctx)
    expect(out.map((o) => o.verdict)).toEqual(['consistent', null, 'consistent'])
    expect(out[0]!.detail?.ignoredEntries).toEqual([
      'entry 2: sentence 1 answered twice; the first answer is kept',
      expect.stringContaining('entry 3:'),
      'entry 5: no sentence numbered 9',
    ])
  })

  it('classifies whole-reply failures for every sentence', async () => {
    const prose = scriptedCtx(() => ({ ...toolReply('x'), toolArguments: null, text: 'All consistent.' }))
    expect((await METHODS.dcr.judge(task(sentences()), prose.ctx)).map((o) => o.problem)).toEqual(
      Array(3).fill('the model answered in prose instead of calling the function'),
    )
    const noList = scriptedCtx(() => toolReply({ results: [] }))
    expect((await METHODS.dcr.judge(task(sentences()), noList.ctx))[0]!.problem).toBe(
      'arguments have no "sentences" list',
    )
    const down = scriptedCtx(() => ({ error: 'HTTP 500 (retries exhausted)' }))
    expect((await METHODS.dcr.judge(task(sentences()), down.ctx)).map((o) => o.status)).toEqual([
      'error',
      'error',
      'error',
    ])
  })
})

describe('AMC as an LLM call', () => {
  const dce = toolReply({
    sentences: [
      entry(1, 'consistent', 'Matches.'),
      entry(2, 'consistent', 'Wrong author.'),
      entry(3, 'consistent', 'Fine.'),
    ],
  })

  it('converts each reason to a mark in a second call; the mark decides the verdict', async () => {
    const { ctx, calls } = scriptedCtx(
      (key) =>
        key.startsWith('dcr-amc')
          ? toolReply({
              marks: [
                { number: 1, mark: '+1' },
                { number: 2, mark: '-1' },
                { number: 3, mark: '+1' },
              ],
            })
          : dce,
      { settings: { amcLlm: true } },
    )
    const out = await METHODS.dcr.judge(task(sentences()), ctx)
    expect(calls.map((c) => c.key)).toEqual(['dcr-dce:42', 'dcr-amc:42'])
    expect(calls[1]!.request.messages[0]!.content).toContain('2. Wrong author.')
    expect(out.map((o) => o.verdict)).toEqual(['consistent', 'inconsistent', 'consistent'])
    expect(out[1]!.detail).toMatchObject({ decision: 'consistent', mark: -1, amc: 'llm' })
    expect(out[0]!.detail?.dcr).toMatchObject({ z: 1 / 3 })
  })

  it('a missing mark is N/A; a failed AMC call is an error that keeps the DCE reason', async () => {
    const partial = scriptedCtx(
      (key) => (key.startsWith('dcr-amc') ? toolReply({ marks: [{ number: 1, mark: '+1' }] }) : dce),
      {
        settings: { amcLlm: true },
      },
    )
    const out = await METHODS.dcr.judge(task(sentences()), partial.ctx)
    expect(out.map((o) => o.status)).toEqual(['ok', 'na', 'na'])
    expect(out[2]!.problem).toBe('AMC gave no mark for sentence 3')

    const down = scriptedCtx((key) => (key.startsWith('dcr-amc') ? { error: 'connection reset' } : dce), {
      settings: { amcLlm: true },
    })
    const failed = await METHODS.dcr.judge(task(sentences()), down.ctx)
    expect(failed[1]).toMatchObject({
      status: 'error',
      problem: 'AMC call failed: connection reset',
      reason: 'Wrong author.',
    })
  })
})
