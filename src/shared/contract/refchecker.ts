import { z } from 'zod'
import { DEFAULT_REFCHECKER_NA, REFCHECKER_NA_RULES } from '../refcheckerNa'

/** RefChecker's evaluation, whole (metrics/refchecker/evaluate.ts builds it). */

const Rate = z.number().nullable()
const Ci = z.tuple([z.number(), z.number()]).nullable()

export const RefDist = z.object({ entailment: z.number(), neutral: z.number(), contradiction: z.number() })
const RefDistCi = z.object({ entailment: Ci, neutral: Ci, contradiction: Ci })
/**
 * How an interval was made: the bootstrap over responses, or Wilson's over the counted triplets
 * (responses) where that is the wider or the bootstrap reached an end the count rules out.
 */
const CiMethod = z.enum(['bootstrap', 'wilson']).nullable()
const RefDistCiMethod = z.object({ entailment: CiMethod, neutral: CiMethod, contradiction: CiMethod })

export const RefFigures = z.object({
  /** Responses (candidates) in scope, abstaining ones included. */
  responses: z.number().int(),
  /** Responses with no triplets at all: reported, and left out of every figure below. */
  abstentions: z.number().int(),
  abstentionRate: Rate,
  abstentionCi: Ci,
  abstentionCiMethod: CiMethod,
  /** Non-abstaining responses with at least one labelled triplet. */
  judged: z.number().int(),
  triplets: z.number().int(),
  macro: RefDist.nullable(),
  macroCi: RefDistCi.nullable(),
  macroCiMethod: RefDistCiMethod.nullable(),
  micro: RefDist.nullable(),
  microCi: RefDistCi.nullable(),
  microCiMethod: RefDistCiMethod.nullable(),
  /** Share of judged responses with at least one contradiction. */
  hallucinationRate: Rate,
  hallucinationCi: Ci,
  hallucinationCiMethod: CiMethod,
  /** Responses by strict label: contradiction if any, else neutral if any, else entailment. */
  strict: RefDist,
})
export type RefFigures = z.infer<typeof RefFigures>

export const RefSource = RefFigures.extend({ byVariant: z.record(z.string(), RefFigures) })
export type RefSource = z.infer<typeof RefSource>

export const RefJudge = RefSource.extend({
  runId: z.number().int(),
  label: z.string(),
  /** Triplets whose checker label could not be read (N/A), whatever the rule did with them. */
  naTriplets: z.number().int().default(0),
  /** Triplets with both a human label and this checker's verdict, and the share that differ. */
  tripletsCompared: z.number().int(),
  tripletErrorRate: Rate,
  tripletErrorCi: Ci,
  tripletErrorCiMethod: CiMethod,
  /**
   * Over the same triplets, in the three-way label space (the RefChecker paper's checker scores):
   * accuracy, macro-F1 over the classes either side used, and F1 per class (null: unused).
   */
  tripletAccuracy: Rate.default(null),
  tripletMacroF1: Rate.default(null),
  tripletF1: z.object({ entailment: Rate, neutral: Rate, contradiction: Rate }).nullable().default(null),
})
export type RefJudge = z.infer<typeof RefJudge>

export const RefcheckerEval = z.object({
  human: RefSource,
  judges: z.array(RefJudge),
  /** What a checker N/A did to the distributions (shared/refcheckerNa.ts). */
  naRule: z.enum(REFCHECKER_NA_RULES).default(DEFAULT_REFCHECKER_NA),
})
export type RefcheckerEval = z.infer<typeof RefcheckerEval>
