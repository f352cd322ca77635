import { describe, expect, it } from 'vitest'
import { METHODS } from '../../src/main/judges/registry'
import { scriptedCtx, targets, task, textReply, toolReply } from './scripted'

const whole = () => targets('whole', ['They sold their cereals.'])

describe('holistic judge', () => {
  it('asks for reasoning before the grade and stores grade, score and reasoning', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({ reasoning: 'Both mention cereal.', grade: 'pass' }))
    const [o] = await METHODS.holistic.judge(task(whole(), { question: null }), ctx)
    expect(Object.keys(calls[0]!.request.tool!.parameters.properties as object)).toEqual([
      'reasoning',
      'grade',
    ])
    expect(calls[0]!.request.messages[0]!.content).toContain('(no question given)')
    expect(o).toMatchObject({ status: 'ok', verdict: 'pass', score: 2, reason: 'Both mention cereal.' })
  })

  it.each([
    ['partially-pass', 'partially_pass', 1],
    ['FAIL', 'fail', 0],
  ])('reads %j as %s (score %i)', async (grade, verdict, score) => {
    const { ctx } = scriptedCtx(() => toolReply({ reasoning: 'r', grade }))
    const [o] = await METHODS.holistic.judge(task(whole()), ctx)
    expect(o).toMatchObject({ verdict, score })
  })

  it('an unknown or missing grade is N/A, keeping the reasoning', async () => {
    const bad = scriptedCtx(() => toolReply({ reasoning: 'hmm', grade: 'excellent' }))
    expect((await METHODS.holistic.judge(task(whole()), bad.ctx))[0]).toMatchObject({
      status: 'na',
      problem: 'grade "excellent" is not one of "pass", "partially_pass", "fail"',
      reason: 'hmm',
    })
    const missing = scriptedCtx(() => toolReply({ reasoning: 'hmm' }))
    expect((await METHODS.holistic.judge(task(whole()), missing.ctx))[0]!.problem).toBe(
      'no grade in the reply',
    )
    const prose = scriptedCtx(() => textReply('result: pass'))
    expect((await METHODS.holistic.judge(task(whole()), prose.ctx))[0]!.status).toBe('na')
  })

  it('gives other unit kinds an N/A instead of skipping them', async () => {
    const { ctx } = scriptedCtx(() => toolReply({ reasoning: 'r', grade: 'fail' }))
    const out = await METHODS.holistic.judge(task([...whole(), ...targets('fact', ['x'], 500)]), ctx)
    expect(out.map((o) => o.status)).toEqual(['ok', 'na'])
  })
})
