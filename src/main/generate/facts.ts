import { z } from 'zod'
import { buildRequest, questionText, toolParameters, validateArguments } from '../judges/common'
import type { GeneratedUnit, GeneratorImpl } from '../judges/types'

/**
 * FaaF's fact generator: question + reference → short standalone facts. Each fact later becomes
 * one target per candidate, so blanks and repeats are dropped here rather than labelled twice.
 */
export const FACTS_TOOL_NAME = 'record_facts'
export const FactsArgs = z.strictObject({
  facts: z.array(z.string()).describe('The facts, one short standalone sentence each.'),
})

/** Trims, drops empty strings and repeats (ignoring case and spacing), keeps the first spelling. */
export function cleanTexts(texts: readonly string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const raw of texts) {
    const text = raw.replace(/\s+/g, ' ').trim()
    const key = text.toLowerCase()
    if (!text || seen.has(key)) continue
    seen.add(key)
    out.push(text)
  }
  return out
}

export const factsGenerator: GeneratorImpl = {
  name: 'facts',
  perCandidate: false,
  async generate(task, ctx) {
    if (!task.item.reference.trim()) return { problem: 'the item has no reference text to take facts from' }
    const request = buildRequest(
      ctx,
      'facts.generate',
      { question: questionText(task.item.question), reference: task.item.reference },
      {
        name: FACTS_TOOL_NAME,
        description: 'Records the facts stated by the reference answer.',
        parameters: toolParameters(FactsArgs),
      },
    )
    const res = await ctx.call(`facts:${task.item.id}`, request)
    if (!res.ok) return { problem: `the call failed: ${res.error}` }
    const args = validateArguments(FactsArgs, res.reply)
    if (!args.ok) return { problem: args.problem }
    const units: GeneratedUnit[] = cleanTexts(args.value.facts).map((text) => ({ kind: 'fact', text }))
    if (units.length === 0) return { problem: 'the model returned no facts' }
    return { units }
  },
}
