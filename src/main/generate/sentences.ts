import type { GeneratorImpl } from '../judges/types'
import { splitSentences } from '../units/splitter'

/**
 * DCR's divide step, done deterministically so sentence targets stay stable across runs and
 * annotators. It uses the same splitter as the Units view, so a person splitting by hand and
 * this generator agree on where sentences end.
 */
export const sentencesGenerator: GeneratorImpl = {
  name: 'sentences',
  perCandidate: true,
  async generate(task) {
    const candidate = task.candidate
    if (!candidate) return { problem: 'sentence splitting needs a candidate' }
    const units = splitSentences(candidate.text)
      .map((s) => s.text.trim())
      .filter((text) => text !== '')
      .map((text) => ({ kind: 'sentence' as const, text }))
    if (units.length === 0) return { problem: 'the candidate is empty' }
    return { units }
  },
}
