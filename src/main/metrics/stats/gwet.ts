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
  readonly pi = new Map<string | number, number>()

  /** One subject's tallies: distinct values and how often each was given. */
  addRow(keys: ArrayLike<string | number>, counts: ArrayLike<number>, distinct: number): void {
    let r = 0
    for (let k = 0; k < distinct; k++) r += counts[k]!
    if (r === 0) return
    this.rated++
    for (let k = 0; k < distinct; k++) this.pi.set(keys[k]!, (this.pi.get(keys[k]!) ?? 0) + counts[k]! / r)
    if (r < 2) return
    let agreeing = 0
    for (let k = 0; k < distinct; k++) agreeing += counts[k]! * (counts[k]! - 1)
    this.paSum += agreeing / (r * (r - 1))
    this.paired++
  }

  /**
   * `categories` is the size of the label space (the schema's labels); categories nobody used
   * add nothing to p_e but count in q. Fewer than two categories in total leaves AC1 undefined.
   */
  result(categories = 0): Ac1 {
    if (this.paired === 0) return { ac1: null, pa: null, pe: null }
    const pa = this.paSum / this.paired
    const q = Math.max(categories, this.pi.size)
    if (q < 2) return { ac1: null, pa, pe: null }
    let s = 0
    for (const sum of this.pi.values()) {
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
