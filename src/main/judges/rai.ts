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
        const status = s.consistent === null ? 'no verdict' : s.consistent ? 'consistent' : 'INCONSISTENT'
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

export interface ImprovementRate {
  /** Candidates inconsistent before the round. */
  inconsistent: number
  /** Of those, the ones whose rewrite was judged fully consistent. */
  corrected: number
  /** corrected / inconsistent; null when nothing was inconsistent. */
  rate: number | null
}

/** A candidate is consistent when its rescaled DCR score is 1 (every sentence marked +1). */
export const isConsistentScore = (score: number): boolean => score >= 1 - 1e-9

/**
 * DCR's consistency improvement rate for one RAI round. `before[i]` and `after[i]` are the
 * rescaled scores of the same candidate before and after its rewrite; null means no score (a
 * failed judgement or rewrite). Unscored originals are left out; an unscored rewrite counts as
 * not corrected, so failures never flatter the rate.
 */
export function improvementRate(
  before: readonly (number | null)[],
  after: readonly (number | null)[],
): ImprovementRate {
  if (before.length !== after.length) {
    throw new Error(
      `improvementRate needs aligned lists (got ${before.length} before, ${after.length} after)`,
    )
  }
  let inconsistent = 0
  let corrected = 0
  before.forEach((b, i) => {
    if (b === null || isConsistentScore(b)) return
    inconsistent++
    const a = after[i]
    if (a !== null && a !== undefined && isConsistentScore(a)) corrected++
  })
  return { inconsistent, corrected, rate: inconsistent === 0 ? null : corrected / inconsistent }
}
