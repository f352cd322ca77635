import { buildRequest, fromCall, na, questionText, transportError } from './common'
import type { JudgeMethodImpl, MethodSettings, VerdictOutcome } from './types'

/**
 * Prompt(T/F): the baseline FaaF is compared against, one plain-text call per fact. Both parse
 * modes are kept on purpose: `word-match` reproduces the fragile matching whose failures the
 * paper measures, `strict` only accepts a reply that starts with the verdict.
 */
export type ParseMode = NonNullable<MethodSettings['parseMode']>

export type TfParse = { ok: true; verdict: 'true' | 'false' } | { ok: false; problem: string }

const WORD = /[\p{L}\p{N}_]+/gu

export function parseTrueFalse(text: string | null, mode: ParseMode): TfParse {
  if (text === null || text.trim() === '') return { ok: false, problem: 'the reply was empty' }
  const words = (text.match(WORD) ?? []).map((w) => w.toLowerCase())
  if (mode === 'strict') {
    const first = words[0]
    if (first === 'true' || first === 'false') return { ok: true, verdict: first }
    return {
      ok: false,
      problem: `the reply does not start with True or False (it starts with "${first ?? ''}")`,
    }
  }
  const hasTrue = words.includes('true')
  const hasFalse = words.includes('false')
  if (hasTrue && hasFalse) return { ok: false, problem: 'ambiguous reply: contains both "true" and "false"' }
  if (hasTrue) return { ok: true, verdict: 'true' }
  if (hasFalse) return { ok: true, verdict: 'false' }
  return { ok: false, problem: 'the reply contains neither "true" nor "false"' }
}

export const promptTf: JudgeMethodImpl = {
  name: 'prompt-tf',
  unitKinds: ['fact'],
  schema: 'faaf',
  judge(task, ctx) {
    const mode: ParseMode = ctx.settings.parseMode ?? 'word-match'
    return Promise.all(
      task.targets.map(async (t): Promise<VerdictOutcome> => {
        const request = () =>
          buildRequest(ctx, 'prompt-tf', {
            question: questionText(task.item.question),
            candidate: task.candidate.text,
            fact: t.text,
          })
        const res = await ctx.call(`prompt-tf:${t.targetId}`, request)
        if (!res.ok) return fromCall(transportError(t, res.error), res)
        const parsed = parseTrueFalse(res.reply.text, mode)
        if (!parsed.ok) return fromCall(na(t, parsed.problem, { parseMode: mode }), res)
        return fromCall(
          { targetId: t.targetId, status: 'ok', verdict: parsed.verdict, detail: { parseMode: mode } },
          res,
        )
      }),
    )
  },
}
