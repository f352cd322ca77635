/*
 * generate/ owns the unit generators: the LLM jobs that write units (facts, questions, triplets)
 * and the deterministic sentence splitter. They build on judges/common and judges/types; the judges
 * never import them back, and the run engine finds them through runs/builtin.ts.
 */
import type { GenerateMethod } from '../../shared/domain'
import type { GeneratorImpl } from '../judges/types'
import { factsGenerator } from './facts'
import { questionsGenerator } from './questions'
import { sentencesGenerator } from './sentences'
import { tripletsGenerator } from './triplets'

export const GENERATORS: Record<GenerateMethod, GeneratorImpl> = {
  facts: factsGenerator,
  questions: questionsGenerator,
  triplets: tripletsGenerator,
  sentences: sentencesGenerator,
}

/** Template names each generator sends. */
export const GENERATOR_TEMPLATES: Record<GenerateMethod, readonly string[]> = {
  facts: ['facts.generate'],
  questions: ['questions.generate'],
  triplets: ['refchecker.extract'],
  sentences: [],
}
