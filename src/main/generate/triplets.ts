import { z } from 'zod'
import type { Triplet } from '../../shared/domain'
import { buildRequest, questionText, toolParameters, validateArguments } from '../judges/common'
import type { GeneratedUnit, GeneratorImpl } from '../judges/types'

/**
 * RefChecker's extractor: question + candidate → (subject, predicate, object) claims. The unit
 * text is the triplet read as a phrase, so annotators see a sentence-like claim; the structured
 * triplet is kept beside it for the checkers.
 */
export const TRIPLETS_TOOL_NAME = 'record_triplets'
const Part = z.string()
export const TripletsArgs = z.strictObject({
  triplets: z
    .array(
      z.strictObject({
        subject: Part.describe('Who or what the claim is about.'),
        predicate: Part.describe('The relation, in the answer’s own words.'),
        object: Part.describe('The other side of the relation.'),
      }),
    )
    .describe('Every claim of the answer, one triplet each.'),
})

export function tripletPhrase(t: Triplet): string {
  return t.join(' ')
}

export const tripletsGenerator: GeneratorImpl = {
  name: 'triplets',
  perCandidate: true,
  async generate(task, ctx) {
    const candidate = task.candidate
    if (!candidate) return { problem: 'triplet extraction needs a candidate' }
    if (!candidate.text.trim()) return { problem: 'the candidate is empty' }
    const request = buildRequest(
      ctx,
      'refchecker.extract',
      { question: questionText(task.item.question), candidate: candidate.text },
      {
        name: TRIPLETS_TOOL_NAME,
        description: 'Records the claim triplets extracted from the answer.',
        parameters: toolParameters(TripletsArgs),
      },
    )
    const res = await ctx.call(`triplets:${candidate.id}`, request)
    if (!res.ok) return { problem: `the call failed: ${res.error}` }
    const args = validateArguments(TripletsArgs, res.reply)
    if (!args.ok) return { problem: args.problem }
    const seen = new Set<string>()
    const units: GeneratedUnit[] = []
    for (const raw of args.value.triplets) {
      const triplet: Triplet = [raw.subject, raw.predicate, raw.object].map((p) =>
        p.replace(/\s+/g, ' ').trim(),
      ) as Triplet
      if (triplet.some((p) => p === '')) continue
      const key = triplet.join('\u0000').toLowerCase()
      if (seen.has(key)) continue
      seen.add(key)
      units.push({ kind: 'triplet', text: tripletPhrase(triplet), triplet })
    }
    if (units.length === 0) return { problem: 'the model returned no complete triplets' }
    return { units }
  },
}
