import { z } from 'zod'
import { buildRequest, toolParameters, validateArguments } from '../judges/common'
import type { GeneratorImpl } from '../judges/types'

/**
 * Seed 001's synthetic questions for pair datasets without one (MRPC): sentence 1 is the
 * reference, and the question is one it answers. An item that already has a question keeps it;
 * nothing a person or an import supplied is overwritten.
 */
export const QUESTION_TOOL_NAME = 'record_question'
export const QuestionArgs = z.strictObject({
  question: z.string().describe('One question that the text answers.'),
})

export const questionsGenerator: GeneratorImpl = {
  name: 'questions',
  perCandidate: false,
  async generate(task, ctx) {
    if (task.item.question?.trim()) return { problem: 'the item already has a question; it was kept' }
    if (!task.item.reference.trim()) return { problem: 'the item has no reference text to ask about' }
    const request = buildRequest(
      ctx,
      'questions.generate',
      { reference: task.item.reference },
      {
        name: QUESTION_TOOL_NAME,
        description: 'Records the generated question.',
        parameters: toolParameters(QuestionArgs),
      },
    )
    const res = await ctx.call(`questions:${task.item.id}`, request)
    if (!res.ok) return { problem: `the call failed: ${res.error}` }
    const args = validateArguments(QuestionArgs, res.reply)
    if (!args.ok) return { problem: args.problem }
    const question = args.value.question.replace(/\s+/g, ' ').trim()
    if (!question) return { problem: 'the model returned an empty question' }
    return { question }
  },
}
