import { z } from 'zod'
import { buildRequest, questionText, toolParameters, validateArguments } from './common'
import type { ImproverImpl } from './types'

/**
 * DCR's reason-assisted improver: rewrites a candidate using the reasons DCE gave for its
 * inconsistent sentences. The rewrite becomes a new candidate variant that the run engine
 * re-evaluates, for up to K rounds.
 */
export const RAI_TOOL_NAME = 'record_rewrite'
export const RaiArgs = z.strictObject({
  rewritten: z.string().describe('The full rewritten candidate text.'),
})

export const IMPROVER: ImproverImpl = {
  async rewrite(task, ctx) {
    if (!task.sentences.some((s) => s.consistent === false)) {
      return { problem: 'nothing to rewrite: every sentence was judged consistent' }
    }
    const feedback = task.sentences
      .map((s, i) => {
        // The judge failed on it, so nothing is known against it: the rewrite keeps it word for word.
        const status =
          s.consistent === null ? 'no verdict: keep as is' : s.consistent ? 'consistent' : 'INCONSISTENT'
        const why = s.reason?.trim() ? ` Reason: ${s.reason.trim()}` : ''
        return `${i + 1}. [${status}] ${s.text}${why}`
      })
      .join('\n')
    const request = buildRequest(
      ctx,
      'dcr.rai',
      {
        question: questionText(task.item.question),
        reference: task.item.reference,
        candidate: task.candidate.text,
        sentences: task.sentences.map((s, i) => `${i + 1}. ${s.text}`).join('\n'),
        feedback,
      },
      {
        name: RAI_TOOL_NAME,
        description: 'Records the rewritten candidate.',
        parameters: toolParameters(RaiArgs),
      },
    )
    const res = await ctx.call(`rai:${task.candidate.id}`, request)
    if (!res.ok) return { problem: `the rewrite call failed: ${res.error}` }
    const args = validateArguments(RaiArgs, res.reply)
    if (!args.ok) return { problem: args.problem }
    const text = args.value.rewritten.trim()
    if (!text) return { problem: 'the rewrite was empty' }
    return { text }
  },
}
