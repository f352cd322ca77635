/** A fixed plan's assignments as each item's annotators, over the range of item ids. */
export function itemOwners(assigned: readonly (readonly [item: number, annotator: number])[] | null): {
  lo: number
  span: number
  start: Int32Array
  annotator: Int32Array
} {
  if (!assigned || assigned.length === 0)
    return { lo: 0, span: 0, start: new Int32Array(1), annotator: new Int32Array(0) }
  let lo = Number.POSITIVE_INFINITY
  let hi = -1
  for (const [item] of assigned) {
    if (item < lo) lo = item
    if (item > hi) hi = item
  }
  const span = hi - lo + 1
  const start = new Int32Array(span + 1)
  for (const [item] of assigned) start[item - lo + 1]!++
  for (let i = 0; i < span; i++) start[i + 1]! += start[i]!
  const fill = start.slice(0, span)
  const annotator = new Int32Array(assigned.length)
  for (const [item, a] of assigned) annotator[fill[item - lo]!++] = a
  return { lo, span, start, annotator }
}
