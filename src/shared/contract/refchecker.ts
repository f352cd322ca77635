import { z } from 'zod'

/** RefChecker's evaluation, whole (metrics/refchecker/evaluate.ts builds it). */

const Rate = z.number().nullable()
const Ci = z.tuple([z.number(), z.number()]).nullable()

export const RefDist = z.object({ entailment: z.number(), neutral: z.number(), contradiction: z.number() })
const RefDistCi = z.object({ entailment: Ci, neutral: Ci, contradiction: Ci })

export const RefFigures = z.object({
  /** Responses (candidates) in scope, abstaining ones included. */
  responses: z.number().int(),
  /** Responses with no triplets at all: reported, and left out of every figure below. */
  abstentions: z.number().int(),
  abstentionRate: Rate,
  abstentionCi: Ci,
  /** Non-abstaining responses with at least one labelled triplet. */
  judged: z.number().int(),
  triplets: z.number().int(),
  macro: RefDist.nullable(),
  macroCi: RefDistCi.nullable(),
  micro: RefDist.nullable(),
  microCi: RefDistCi.nullable(),
  /** Share of judged responses with at least one contradiction. */
  hallucinationRate: Rate,
  hallucinationCi: Ci,
  /** Responses by strict label: contradiction if any, else neutral if any, else entailment. */
  strict: RefDist,
})
export type RefFigures = z.infer<typeof RefFigures>

export const RefSource = RefFigures.extend({ byVariant: z.record(z.string(), RefFigures) })
export type RefSource = z.infer<typeof RefSource>

export const RefJudge = RefSource.extend({
  runId: z.number().int(),
  label: z.string(),
  /** Triplets with both a human label and this checker's verdict, and the share that differ. */
  tripletsCompared: z.number().int(),
  tripletErrorRate: Rate,
  tripletErrorCi: Ci,
})
export type RefJudge = z.infer<typeof RefJudge>

export const RefcheckerEval = z.object({ human: RefSource, judges: z.array(RefJudge) })
export type RefcheckerEval = z.infer<typeof RefcheckerEval>
