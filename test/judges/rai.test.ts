import { describe, expect, it } from 'vitest'
import { IMPROVER } from '../../src/main/judges/registry'
import type { RewriteTask } from '../../src/main/judges/types'
import { scriptedCtx, textReply, toolReply } from './scripted'

const rewriteTask = (consistent: boolean[]): RewriteTask => ({
  item: { id: 1, question: null, reference: 'Hamlet was written by Shakespeare. It is set in Denmark.' },
  candidate: { id: 55, variant: 'answer', text: 'Hamlet was written by Marlowe. It is set in Denmark.' },
  sentences: [
    {
      text: 'Hamlet was written by Marlowe.',
      consistent: consistent[0]!,
      reason: 'The reference names Shakespeare as the author.',
    },
    { text: 'It is set in Denmark.', consistent: consistent[1]!, reason: 'Matches the reference.' },
  ],
})

describe('RAI rewrite', () => {
  it('sends the reasons of the inconsistent sentences and returns the rewrite', async () => {
    const { ctx, calls } = scriptedCtx(() =>
      toolReply({ rewritten: '  Hamlet was written by Shakespeare. It is set in Denmark. ' }),
    )
    const out = await IMPROVER.rewrite(rewriteTask([false, true]), ctx)
    expect(out).toEqual({ text: 'Hamlet was written by Shakespeare. It is set in Denmark.' })
    expect(calls.map((c) => c.key)).toEqual(['rai:55'])
    const prompt = calls[0]!.request.messages[0]!.content
    expect(prompt).toContain(
      '1. [INCONSISTENT] Hamlet was written by Marlowe. Reason: The reference names Shakespeare as the author.',
    )
    expect(prompt).toContain('2. [consistent] It is set in Denmark.')
  })

  it('tells the rewrite to keep a sentence the judge gave no verdict on as it is', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({ rewritten: 'x' }))
    const task = rewriteTask([false, true])
    task.sentences[1]!.consistent = null
    await IMPROVER.rewrite(task, ctx)
    const prompt = calls[0]!.request.messages[0]!.content
    expect(prompt).toContain('2. [no verdict: keep as is] It is set in Denmark.')
    expect(prompt).toContain('keep sentences marked "no verdict" word for word')
  })

  it('makes no call when nothing is inconsistent', async () => {
    const { ctx, calls } = scriptedCtx(() => toolReply({ rewritten: 'x' }))
    expect(await IMPROVER.rewrite(rewriteTask([true, true]), ctx)).toEqual({
      problem: 'nothing to rewrite: every sentence was judged consistent',
    })
    expect(calls).toHaveLength(0)
  })

  it('reports unusable replies and failed calls as problems', async () => {
    const prose = scriptedCtx(() => textReply('Here is the fix: ...'))
    expect(await IMPROVER.rewrite(rewriteTask([false, true]), prose.ctx)).toEqual({
      problem: 'the model answered in prose instead of calling the function',
    })
    const empty = scriptedCtx(() => toolReply({ rewritten: '   ' }))
    expect(await IMPROVER.rewrite(rewriteTask([false, true]), empty.ctx)).toEqual({
      problem: 'the rewrite was empty',
    })
    const wrong = scriptedCtx(() => toolReply({ text: 'x' }))
    expect(await IMPROVER.rewrite(rewriteTask([false, true]), wrong.ctx)).toMatchObject({
      problem: expect.stringContaining('arguments do not match the schema'),
    })
    const down = scriptedCtx(() => ({ error: 'HTTP 503' }))
    expect(await IMPROVER.rewrite(rewriteTask([false, true]), down.ctx)).toEqual({
      problem: 'the rewrite call failed: HTTP 503',
    })
  })
})
