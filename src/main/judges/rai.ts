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

export interface ImprovementRate {
  /** Candidates with a sentence judged inconsistent before the round. */
  inconsistent: number
  /** Of those, the ones whose rewrite was judged with no sentence inconsistent. */
  corrected: number
  /** corrected / inconsistent; null when nothing was inconsistent. */
  rate: number | null
}

/**
 * What the judge found of a candidate, sentence by sentence (true consistent, false inconsistent,
 * null no verdict). A sentence the judge failed on (N/A, failed call) says nothing either way, so
 * it never makes a candidate inconsistent; a candidate with no verdict at all is `unjudged`. The
 * metrics' RAI table reads the marks the same way (N/A left out).
 */
export type Consistency = 'consistent' | 'inconsistent' | 'unjudged'

export function consistencyOf(sentences: readonly (boolean | null)[]): Consistency {
  if (sentences.some((s) => s === false)) return 'inconsistent'
  return sentences.some((s) => s === true) ? 'consistent' : 'unjudged'
}

/**
 * DCR's consistency improvement rate for one RAI round. `before[i]` and `after[i]` are the same
 * candidate before and after its rewrite; an `after` of null means no rewrite (it failed). Only
 * inconsistent originals count; a rewrite the judge gave no verdict on is not corrected, so
 * failures never flatter the rate.
 */
export function improvementRate(
  before: readonly Consistency[],
  after: readonly (Consistency | null)[],
): ImprovementRate {
  if (before.length !== after.length) {
    throw new Error(
      `improvementRate needs aligned lists (got ${before.length} before, ${after.length} after)`,
    )
  }
  let inconsistent = 0
  let corrected = 0
  before.forEach((b, i) => {
    if (b !== 'inconsistent') return
    inconsistent++
    if (after[i] === 'consistent') corrected++
  })
  return { inconsistent, corrected, rate: inconsistent === 0 ? null : corrected / inconsistent }
}
