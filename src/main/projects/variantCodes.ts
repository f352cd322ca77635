/** Each candidate's variant as a code, over the range of candidate ids: looked up without a Map or a call. */
export interface VariantCodes {
  /** in the order of each variant's first candidate (the order the dashboard lists them in on a tie) */
  names: string[]
  /** Candidate lo + i's variant code at i; −1 for none (a target judged against the reference). */
  lo: number
  code: Int32Array
}

/** Variants coded by the order their candidates were read (by id: each variant's first candidate first). */
export function variantCodes(
  variantOf: readonly (readonly [candidate: number, variant: string])[],
): VariantCodes {
  const names: string[] = []
  const code = new Map<string, number>()
  let lo = Number.POSITIVE_INFINITY
  let hi = -1
  for (const [c] of variantOf) {
    if (c < lo) lo = c
    if (c > hi) hi = c
  }
  const codeOfCandidate = new Int32Array(hi < lo ? 0 : hi - lo + 1).fill(-1)
  for (const [c, v] of variantOf) {
    let x = code.get(v)
    if (x === undefined) {
      x = names.push(v) - 1
      code.set(v, x)
    }
    codeOfCandidate[c - lo] = x
  }
  return { names, lo: hi < lo ? 0 : lo, code: codeOfCandidate }
}
