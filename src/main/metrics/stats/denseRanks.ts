/**
 * Dense ranks of a column of values, as pairCorrelations.ts numbers the distinct x and y values
 * and the (x, y) cells of its pairs. Pure.
 */

/** Distinct values a linear search handles before denseRanks sorts instead. */
const FEW = 16

/** Dense ranks of values (equal by ===, so 0 and −0 share one) and how many distinct there are. */
export function denseRanks(v: Float64Array): { rank: Int32Array; count: number } {
  // NaN equals nothing, so it would have no rank: a caller's bug, stopped here.
  for (let i = 0; i < v.length; i++)
    if (Number.isNaN(v[i])) throw new Error('pair correlations: a value is NaN')
  // Callers often pass values already in order: then a scan gives the ranks.
  let ascending = true
  for (let k = 1; k < v.length && ascending; k++) ascending = v[k - 1]! <= v[k]!
  const rank = new Int32Array(v.length)
  if (ascending) {
    let d = -1
    for (let k = 0; k < v.length; k++) {
      if (k === 0 || v[k] !== v[k - 1]) d++
      rank[k] = d
    }
    return { rank, count: d + 1 }
  }
  // Item scores are mostly shares of a few units: a handful of distinct values, found by a
  // short linear search, then put in order. Past FEW distinct values, a sort.
  const few = new Float64Array(FEW)
  let found = 0
  for (let i = 0; i < v.length && found <= FEW; i++) {
    const x = v[i]!
    let j = 0
    while (j < found && few[j] !== x) j++
    if (j === found) {
      if (found === FEW) found++
      else few[found++] = x
    }
  }
  if (found <= FEW) {
    const distinct = few.subarray(0, found).sort()
    for (let i = 0; i < v.length; i++) {
      const x = v[i]!
      let j = 0
      while (distinct[j] !== x) j++
      rank[i] = j
    }
    return { rank, count: found }
  }
  // A numeric sort without a comparator, then a binary search among the distinct values.
  const sorted = v.slice().sort()
  let m = 0
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[m - 1]) sorted[m++] = sorted[k]!
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!
    let lo = 0
    let hi = m - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (sorted[mid]! < x) lo = mid + 1
      else hi = mid
    }
    rank[i] = lo
  }
  return { rank, count: m }
}
