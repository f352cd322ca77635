/**
 * The median of part of a typed array, found by selection instead of a sort: the same number
 * sorting gives (the middle value; the mean of the two middle ones for an even count), in linear
 * time and with no copy. It reorders that part of the array. Pure.
 */
export function medianInPlace(values: Float64Array, from = 0, to = values.length): number | null {
  const n = to - from
  if (n <= 0) return null
  const mid = from + (n >> 1)
  select(values, from, to - 1, mid)
  if (n % 2 === 1) return values[mid]!
  // Selection leaves every value before `mid` no larger than it: the largest of them is the other middle one.
  let below = values[from]!
  for (let i = from + 1; i < mid; i++) if (values[i]! > below) below = values[i]!
  return (below + values[mid]!) / 2
}

/** Puts the k-th smallest of values[lo…hi] at k, smaller ones before it and larger ones after (Hoare's select). */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    // Median of three as the pivot, so runs of sorted or equal seconds do not go quadratic.
    const m = lo + ((hi - lo) >> 1)
    const x = a[lo]!
    const y = a[m]!
    const z = a[hi]!
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z))
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i]! < pivot) i++
      while (a[j]! > pivot) j--
      if (i <= j) {
        const t = a[i]!
        a[i] = a[j]!
        a[j] = t
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return
  }
}
