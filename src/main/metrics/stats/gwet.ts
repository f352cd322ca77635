/**
 * Gwet's AC1 (Gwet 2008, "Computing inter-rater reliability and its variance in the presence of
 * high agreement"), for any number of raters and missing ratings as in Gwet's Handbook of
 * Inter-Rater Reliability: observed agreement p_a over the subjects rated at least twice,
 * category propensities π_k averaged over every rated subject, and chance agreement
 * p_e = Σ π_k (1 − π_k) / (q − 1). Its chance term shrinks as one category dominates, which is
 * why it does not collapse the way κ does when nearly everything is labelled alike.
 */

type Rating = string | number | null

export interface Ac1 {
  ac1: number | null
  /** Observed agreement (the same figure as percent agreement). */
  pa: number | null
  pe: number | null
}

/** Running sums over rows, so the matrix path and the integer-code path share one formula. */
export class Ac1Sums {
  /** Subjects with at least one rating. */
  rated = 0
  /** Subjects with at least two ratings, and their summed pair agreement. */
  paired = 0
  paSum = 0
  /** Summed propensity per category, in first-seen order. */
  private readonly pi = new Map<string | number, number>()
  /**
   * Given `codes`, keys are integer codes below it and the sums sit in an array, first-seen order
   * kept beside it: the columnar path adds millions of rows. The same additions in the same
   * order, so the same figures.
   */
  private readonly piCodes: Float64Array | null
  private readonly codeOrder: number[] = []

  constructor(codes?: number) {
    this.piCodes = codes === undefined ? null : new Float64Array(codes)
  }

  /** Categories given at least once. */
  get size(): number {
    return this.piCodes ? this.codeOrder.length : this.pi.size
  }

  /** One subject's tallies: distinct values and how often each was given. */
  addRow(keys: ArrayLike<string | number>, counts: ArrayLike<number>, distinct: number): void {
    let r = 0
    for (let k = 0; k < distinct; k++) r += counts[k]!
    if (r === 0) return
    this.rated++
    const codes = this.piCodes
    if (codes)
      for (let k = 0; k < distinct; k++) {
        const c = keys[k] as number
        // A sum of positive shares is never 0 once a category was given.
        if (codes[c] === 0) this.codeOrder.push(c)
        codes[c] = codes[c]! + counts[k]! / r
      }
    else
      for (let k = 0; k < distinct; k++) this.pi.set(keys[k]!, (this.pi.get(keys[k]!) ?? 0) + counts[k]! / r)
    if (r < 2) return
    let agreeing = 0
    for (let k = 0; k < distinct; k++) agreeing += counts[k]! * (counts[k]! - 1)
    this.paSum += agreeing / (r * (r - 1))
    this.paired++
  }

  /**
   * `addRow` of a subject rated once, with code `c`, on the integer-code path: the same addition,
   * without the tally arrays (most subjects of a big dataset are rated once or twice).
   */
  addOne(c: number): void {
    const codes = this.piCodes!
    this.rated++
    if (codes[c] === 0) this.codeOrder.push(c)
    codes[c] = codes[c]! + 1 / 1
  }

  /** `addRow` of a subject rated twice, codes `x` then `y`: the same additions in the same order. */
  addTwo(x: number, y: number): void {
    const codes = this.piCodes!
    this.rated++
    if (x === y) {
      if (codes[x] === 0) this.codeOrder.push(x)
      codes[x] = codes[x]! + 2 / 2
      // agreeing = 2 · 1 pairs of r · (r − 1) = 2
      this.paSum += 2 / 2
    } else {
      if (codes[x] === 0) this.codeOrder.push(x)
      codes[x] = codes[x]! + 1 / 2
      if (codes[y] === 0) this.codeOrder.push(y)
      codes[y] = codes[y]! + 1 / 2
      this.paSum += 0 / 2
    }
    this.paired++
  }

  /**
   * `categories` is the size of the label space (the schema's labels); categories nobody used
   * add nothing to p_e but count in q. Fewer than two categories in total leaves AC1 undefined.
   */
  result(categories = 0): Ac1 {
    if (this.paired === 0) return { ac1: null, pa: null, pe: null }
    const pa = this.paSum / this.paired
    const q = Math.max(categories, this.size)
    if (q < 2) return { ac1: null, pa, pe: null }
    let s = 0
    const codes = this.piCodes
    const sums = codes ? this.codeOrder.map((c) => codes[c]!) : this.pi.values()
    for (const sum of sums) {
      const p = sum / this.rated
      s += p * (1 - p)
    }
    const pe = s / (q - 1)
    return { ac1: (pa - pe) / (1 - pe), pa, pe }
  }
}

/** AC1 of a ratings matrix: one row per subject, one column per rater, null where unrated. */
export function gwetAc1(rows: readonly (readonly Rating[])[], categories = 0): Ac1 {
  const sums = new Ac1Sums()
  const keys: (string | number)[] = []
  const counts: number[] = []
  for (const row of rows) {
    let d = 0
    for (const v of row) {
      if (v === null) continue
      let k = 0
      while (k < d && keys[k] !== v) k++
      if (k === d) {
        keys[d] = v
        counts[d++] = 1
      } else counts[k]!++
    }
    sums.addRow(keys, counts, d)
  }
  return sums.result(categories)
}
