import { z } from 'zod'
import { buildRequest, na, parseArguments, questionText, toolParameters, transportError } from './common'
import type { JudgeMethodImpl, VerdictOutcome } from './types'

/**
 * Seed 001's correctness judge: question + reference + candidate → reasoning, then a grade. The
 * reasoning argument comes first so the model argues before it grades. Scores follow the holistic
 * label schema (pass 2, partially_pass 1, fail 0).
 */
export const HOLISTIC_TOOL_NAME = 'record_grade'
export const HOLISTIC_SCORES = { pass: 2, partially_pass: 1, fail: 0 } as const

const Grade = z.enum(['pass', 'partially_pass', 'fail'])
export const HolisticArgs = z.strictObject({
  reasoning: z.string().describe('Your reasoning, comparing the answer with the reference answer.'),
  grade: Grade.describe('pass, partially_pass or fail, following the grading rules.'),
})

export const holistic: JudgeMethodImpl = {
  name: 'holistic',
  unitKinds: ['whole'],
  schema: 'holistic',
  async judge(task, ctx) {
    const wholes = task.targets.filter((t) => t.kind === 'whole')
    const others = task.targets
      .filter((t) => t.kind !== 'whole')
      .map((t) => na(t, `the holistic judge grades whole candidates, not ${t.kind} units`))
    if (wholes.length === 0) return others
    const request = buildRequest(
      ctx,
      'holistic',
      {
        question: questionText(task.item.question),
        reference: task.item.reference,
        candidate: task.candidate.text,
      },
      {
        name: HOLISTIC_TOOL_NAME,
        description: 'Records the reasoning and the grade.',
        parameters: toolParameters(HolisticArgs),
      },
    )
    const res = await ctx.call(`holistic:${task.candidate.id}`, request)
    if (!res.ok) return [...wholes.map((t) => transportError(t, res.error)), ...others]
    const args = parseArguments(res.reply)
    if (!args.ok) return [...wholes.map((t) => na(t, args.problem)), ...others]
    const reasoning = typeof args.value.reasoning === 'string' ? args.value.reasoning : null
    // Seed 001 spells the middle grade "partially-pass"; accept that spelling and stray case.
    const raw = args.value.grade
    const grade = Grade.safeParse(
      typeof raw === 'string'
        ? raw
            .trim()
            .toLowerCase()
            .replace(/[-\s]+/g, '_')
        : raw,
    )
    const judged = wholes.map((t): VerdictOutcome => {
      if (!Object.hasOwn(args.value, 'grade')) return { ...na(t, 'no grade in the reply'), reason: reasoning }
      if (!grade.success) {
        const shown = JSON.stringify(args.value.grade)
        return {
          ...na(t, `grade ${shown} is not one of "pass", "partially_pass", "fail"`),
          reason: reasoning,
        }
      }
      return {
        targetId: t.targetId,
        status: 'ok',
        verdict: grade.data,
        score: HOLISTIC_SCORES[grade.data],
        reason: reasoning,
      }
    })
    return [...judged, ...others]
  },
}
