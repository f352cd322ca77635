import { judgeBatched } from './batched'
import { buildRequest, fromCall, na, questionText, transportError, tripletText } from './common'
import type { JudgeMethodImpl, TargetInput, VerdictOutcome } from './types'

/**
 * RefChecker's checker, in two forms. `refchecker` makes one plain-text call per triplet, as the
 * paper does, and reads the reply strictly: its first word must be one of the three labels (a
 * text reply keeps the checker usable on servers without tools). `refchecker-batched` applies the
 * FaaF idea: all triplets of a response as enum arguments of one function call.
 */
export const REFCHECKER_VALUES = ['entailment', 'neutral', 'contradiction'] as const
export type RefcheckerVerdict = (typeof REFCHECKER_VALUES)[number]

const WORD = /[\p{L}\p{N}_]+/gu

export function parseRefcheckerLabel(
  text: string | null,
): { ok: true; verdict: RefcheckerVerdict } | { ok: false; problem: string } {
  if (text === null || text.trim() === '') return { ok: false, problem: 'the reply was empty' }
  const first = (text.match(WORD) ?? [])[0]?.toLowerCase() ?? ''
  const hit = REFCHECKER_VALUES.find((v) => v === first)
  if (hit) return { ok: true, verdict: hit }
  return {
    ok: false,
    problem: `the reply does not start with Entailment, Neutral or Contradiction (it starts with "${first}")`,
  }
}

function claimOf(t: TargetInput): string {
  return tripletText(t)
}

export const refchecker: JudgeMethodImpl = {
  name: 'refchecker',
  unitKinds: ['triplet'],
  schema: 'refchecker',
  judge(task, ctx) {
    return Promise.all(
      task.targets.map(async (t): Promise<VerdictOutcome> => {
        const request = () =>
          buildRequest(ctx, 'refchecker.check', {
            question: questionText(task.item.question),
            reference: task.item.reference,
            triplet: claimOf(t),
          })
        const res = await ctx.call(`refchecker:${t.targetId}`, request)
        if (!res.ok) return fromCall(transportError(t, res.error), res)
        const parsed = parseRefcheckerLabel(res.reply.text)
        if (!parsed.ok) return fromCall(na(t, parsed.problem), res)
        return fromCall({ targetId: t.targetId, status: 'ok', verdict: parsed.verdict }, res)
      }),
    )
  },
}

export const REFCHECKER_TOOL_NAME = 'record_claim_checks'

export const refcheckerBatched: JudgeMethodImpl = {
  name: 'refchecker-batched',
  unitKinds: ['triplet'],
  schema: 'refchecker',
  judge(task, ctx) {
    return judgeBatched(task.targets, ctx, {
      keyPrefix: 'refchecker-batched',
      candidateId: task.candidate.id,
      spec: { prefix: 'claim', values: [...REFCHECKER_VALUES], citation: false },
      textOf: claimOf,
      noun: 'claim',
      toolName: REFCHECKER_TOOL_NAME,
      toolDescription:
        'Records how each claim relates to the reference. Every claim_N argument is described by one claim triplet; set it to "entailment", "neutral" or "contradiction".',
      request: (tool, chunk) =>
        buildRequest(
          ctx,
          'refchecker.check-batched',
          {
            question: questionText(task.item.question),
            reference: task.item.reference,
            triplets: chunk.map((t, i) => `claim_${i}: ${claimOf(t)}`).join('\n'),
          },
          tool,
        ),
    })
  },
}
