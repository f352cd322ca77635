import {
  type Binary,
  type CategoricalLabelSchema,
  checkVerdict,
  type LabelSchema,
} from '../../shared/labelSchemas'
import { OWN_SCORE_METHODS } from '../../shared/ownScore'
import type { VerdictOutcome } from './types'

/**
 * Method × label schema: whether a judge method can answer in a dataset's label schema, and how
 * its own words become the schema's. Pure; the run engine and run creation both ask it.
 *
 * Rules, in order:
 * - `lexical` (and any method whose schema is `dataset`) scores overlap and answers in the
 *   dataset's own words, so it fits every schema.
 * - A numeric schema (SummEval's 1–5) has no words to answer in. Methods whose answer carries a
 *   number of their own (DCR's ±1 sentence marks, the holistic grade's 2 / 1 / 0) keep their words
 *   and that number (`own-score`), so the metrics can correlate the candidate's score with the
 *   human scores as the DCR paper does; a verdict without its number is N/A. Methods that answer
 *   only with words are refused.
 * - The method's words all belong to the schema: they are stored as they are.
 * - Otherwise they are translated through the binary: supported → the schema's first supported
 *   value, unsupported → its lowest-scored (else first) unsupported value, and the method's own
 *   word is kept in the verdict's detail. This is refused when both the method and the schema
 *   distinguish several kinds of "unsupported" (RefChecker's neutral / contradiction against
 *   FaaF's false / not_clear): no translation keeps both sides' distinctions.
 */

interface Vocabulary {
  values: readonly string[]
  binary: Record<string, Binary>
}

const TF: Vocabulary = { values: ['true', 'false'], binary: { true: 'supported', false: 'unsupported' } }
const TFN: Vocabulary = {
  values: ['true', 'false', 'not_clear'],
  binary: { true: 'supported', false: 'unsupported', not_clear: 'unsupported' },
}
const REFCHECKER: Vocabulary = {
  values: ['entailment', 'neutral', 'contradiction'],
  binary: { entailment: 'supported', neutral: 'unsupported', contradiction: 'unsupported' },
}

/** The words each built-in LLM method answers with (see src/main/judges/README.md). */
export const METHOD_VOCABULARY: Readonly<Record<string, Vocabulary | 'dataset'>> = {
  'prompt-tf': TF,
  'faaf-tf': TF,
  'faaf-tf-cite': TF,
  'faaf-tfn': TFN,
  'faaf-tfn-cite': TFN,
  refchecker: REFCHECKER,
  'refchecker-batched': REFCHECKER,
  dcr: {
    values: ['consistent', 'inconsistent'],
    binary: { consistent: 'supported', inconsistent: 'unsupported' },
  },
  holistic: {
    values: ['pass', 'partially_pass', 'fail'],
    binary: { pass: 'supported', partially_pass: 'unsupported', fail: 'unsupported' },
  },
  lexical: 'dataset',
}

export type SchemaFit =
  | { ok: true; mode: 'dataset' | 'native' | 'own-score' }
  | { ok: true; mode: 'translated'; map: Record<string, string> }
  | { ok: false; reason: string }

const words = (v: readonly string[]) => v.map((x) => `"${x}"`).join(' / ')

/** The schema's value for each side of the binary, or null when a side has no value. */
export function binaryRepresentatives(schema: CategoricalLabelSchema): Record<Binary, string> | null {
  const sup = schema.values.filter((v) => schema.binary[v] === 'supported')
  const unsup = schema.values.filter((v) => schema.binary[v] === 'unsupported')
  const scores = schema.scores
  const lowest = scores ? [...unsup].sort((a, b) => (scores[a] ?? 0) - (scores[b] ?? 0)) : unsup
  if (!sup[0] || !lowest[0]) return null
  return { supported: sup[0], unsupported: lowest[0] }
}

/**
 * Whether `method` can answer in `schema`. A method this module does not know (a test's own
 * registry) is taken at its word: fit, verdicts stored as they come.
 */
export function schemaFit(method: string, schema: LabelSchema): SchemaFit {
  const vocab = METHOD_VOCABULARY[method]
  if (vocab === 'dataset') {
    if (schema.type === 'categorical' && !binaryRepresentatives(schema))
      return {
        ok: false,
        reason: `the dataset's label schema "${schema.name}" has no supported or no unsupported value, so ${method}'s threshold decision has nothing to map onto`,
      }
    return { ok: true, mode: 'dataset' }
  }
  if (!vocab) return { ok: true, mode: 'native' }
  if (schema.type === 'numeric' && OWN_SCORE_METHODS.has(method)) return { ok: true, mode: 'own-score' }
  if (schema.type === 'numeric')
    return {
      ok: false,
      reason: `${method} answers with the words ${words(vocab.values)}, but the dataset's label schema "${schema.name}" is a numeric scale (${schema.min}–${schema.max}); use DCR, the holistic judge or the lexical baseline, whose scores are correlated with the scale, or a dataset with a word schema`,
    }
  if (vocab.values.every((v) => schema.values.includes(v))) return { ok: true, mode: 'native' }
  const reps = binaryRepresentatives(schema)
  if (!reps)
    return {
      ok: false,
      reason: `the dataset's label schema "${schema.name}" has no supported or no unsupported value, so ${method}'s verdicts have nothing to map onto`,
    }
  const methodUnsup = vocab.values.filter((v) => vocab.binary[v] === 'unsupported')
  const schemaUnsup = schema.values.filter((v) => schema.binary[v] === 'unsupported')
  if (methodUnsup.length > 1 && schemaUnsup.length > 1)
    return {
      ok: false,
      reason: `${method} answers ${words(vocab.values)} and the dataset's label schema "${schema.name}" has ${words(schema.values)}: both tell kinds of unsupported apart (${words(methodUnsup)} against ${words(schemaUnsup)}) and no mapping keeps both; pick a method that answers in these words or a dataset schema with one unsupported value`,
    }
  const map = Object.fromEntries(vocab.values.map((v) => [v, reps[vocab.binary[v]!]!]))
  return { ok: true, mode: 'translated', map }
}

/**
 * Puts a method's outcomes into the schema's words (a translated verdict keeps the original in
 * `detail.methodVerdict`). A verdict that still falls outside the schema becomes N/A with the
 * reason, so no stored verdict is ever outside the dataset's schema.
 */
export function toSchemaWords(
  fit: SchemaFit,
  schema: LabelSchema,
  outcomes: readonly VerdictOutcome[],
): VerdictOutcome[] {
  return outcomes.map((o) => {
    if (o.verdict === null || o.status !== 'ok') return o
    if (fit.ok && fit.mode === 'own-score') {
      if (typeof o.score === 'number' && Number.isFinite(o.score)) return o
      return { ...o, status: 'na', verdict: null, problem: `"${o.verdict}" came without its score` }
    }
    let out = o
    if (fit.ok && fit.mode === 'translated') {
      const mapped = fit.map[o.verdict]
      if (mapped !== undefined)
        out = { ...o, verdict: mapped, detail: { ...(o.detail ?? {}), methodVerdict: o.verdict } }
    }
    const problem = checkVerdict(schema, out.verdict!)
    if (problem === null) return out
    return { ...o, status: 'na', verdict: null, problem: `outside the dataset's schema: ${problem}` }
  })
}
