/** Cohen's κ of two people over the targets both labelled, and how many those are. */
export interface PairTally {
  n: number
  kappa: number | null
}

/** One pair of people's counts over the targets both labelled. */
export type PairCounts = { n: number; same: number; ma: Float64Array; mb: Float64Array }

/** Each pair's κ from its counts; a function of its own so a kept tally keeps the counts alone. */
export function pairLookup(pairs: PairCounts[][], V: number): (a: number, b: number) => PairTally {
  return (a, b) => {
    const c = a < b ? pairs[a]?.[b] : pairs[b]?.[a]
    if (!c || c.n === 0) return { n: 0, kappa: null }
    let pe = 0
    for (let v = 0; v < V; v++) pe += (c.ma[v]! / c.n) * (c.mb[v]! / c.n)
    // Both used one and the same verdict throughout: chance agreement is total and κ is 0/0.
    return { n: c.n, kappa: pe >= 1 - 1e-12 ? null : (c.same / c.n - pe) / (1 - pe) }
  }
}

/** Counts one target both people labelled: verdict codes `ca` of person a and `cb` of person b. */
export function countPair(
  pairs: PairCounts[][],
  V: number,
  a: number,
  b: number,
  ca: number,
  cb: number,
): void {
  const x = Math.min(a, b)
  const y = Math.max(a, b)
  let row = pairs[x]
  if (row === undefined) {
    row = []
    pairs[x] = row
  }
  let c = row[y]
  if (c === undefined) {
    c = { n: 0, same: 0, ma: new Float64Array(V), mb: new Float64Array(V) }
    row[y] = c
  }
  c.n++
  if (ca === cb) c.same++
  c.ma[a < b ? ca : cb]!++
  c.mb[a < b ? cb : ca]!++
}
