import type { GeneratorImpl } from '../judges/types'

/**
 * DCR's divide step, done deterministically so sentence targets stay stable across runs and
 * annotators: the built-in Unicode sentence segmenter, no model call.
 */
export function splitSentences(text: string, locale = 'en'): string[] {
  const segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' })
  const out: string[] = []
  for (const { segment } of segmenter.segment(text)) {
    const s = segment.trim()
    if (s) out.push(s)
  }
  return out
}

export const sentencesGenerator: GeneratorImpl = {
  name: 'sentences',
  perCandidate: true,
  async generate(task) {
    const candidate = task.candidate
    if (!candidate) return { problem: 'sentence splitting needs a candidate' }
    const units = splitSentences(candidate.text).map((text) => ({ kind: 'sentence' as const, text }))
    if (units.length === 0) return { problem: 'the candidate is empty' }
    return { units }
  },
}
