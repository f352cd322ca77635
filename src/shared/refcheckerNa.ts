/**
 * What a RefChecker checker's N/A (a reply whose label could not be read) does to the
 * hallucination distribution. RefChecker's benchmark script counts any label other than
 * Entailment / Neutral / Contradiction as Neutral and keeps every triplet in the denominator, so
 * a response with one Entailment and one N/A reads 50% / 50% / 0%: `neutral`, the default.
 * `left-out` takes the shares over the readable labels only (that response reads 100% Entailment).
 * Either way the N/A triplets are counted and reported apart; transport errors are never labels.
 */
export const REFCHECKER_NA_RULES = ['neutral', 'left-out'] as const
export type RefcheckerNaRule = (typeof REFCHECKER_NA_RULES)[number]

export const DEFAULT_REFCHECKER_NA: RefcheckerNaRule = 'neutral'

export const REFCHECKER_NA_WORDS: Record<RefcheckerNaRule, string> = {
  neutral: "a checker N/A counts as Neutral (as RefChecker's benchmark)",
  'left-out': 'a checker N/A is left out of the shares',
}
