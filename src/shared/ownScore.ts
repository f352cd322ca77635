import type { Binary } from './labelSchemas'

/**
 * The words of the methods that answer a numeric dataset (SummEval's 1–5) with a number of their
 * own: DCR's sentence decisions (±1 marks) and the holistic grade (2 / 1 / 0). Such a verdict is
 * stored in the method's word with its number; the word says which side of the binary it is on
 * (the number alone, a mark of +1 on a 1–5 scale, would fall under any threshold), and the
 * number is what the correlations read. Pure, shared by the judges and the metrics.
 */
export const OWN_SCORE_METHODS: ReadonlySet<string> = new Set(['dcr', 'holistic'])

/** Each such method's words and the number each stands for when a verdict file gives none. */
export const OWN_SCORE_WORDS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  dcr: { consistent: 1, inconsistent: -1 },
  holistic: { pass: 2, partially_pass: 1, fail: 0 },
}

export const OWN_SCORE_BINARY: Readonly<Record<string, Binary>> = {
  consistent: 'supported',
  inconsistent: 'unsupported',
  pass: 'supported',
  partially_pass: 'unsupported',
  fail: 'unsupported',
}

/** The binary side of a method word stored on a numeric dataset, or null for anything else. */
export function ownScoreBinary(verdict: string | null): Binary | null {
  return verdict !== null && Object.hasOwn(OWN_SCORE_BINARY, verdict) ? OWN_SCORE_BINARY[verdict]! : null
}
