import type { Assignments } from './assignmentsPacked'

/** Item lo + i's annotators: annotator[start[i]] … annotator[start[i + 1] − 1]. */
export interface ItemOwners {
  lo: number
  span: number
  start: Int32Array
  annotator: Int32Array
}

/** A fixed plan's assignments as each item's annotators, over the range of item ids. */
export function itemOwners(assigned: Assignments | null): ItemOwners {
  const n = assigned?.item.length ?? 0
  if (!assigned || n === 0) return { lo: 0, span: 0, start: new Int32Array(1), annotator: new Int32Array(0) }
  const { item } = assigned
  let lo = Number.POSITIVE_INFINITY
  let hi = -1
  for (let j = 0; j < n; j++) {
    const i = item[j]!
    if (i < lo) lo = i
    if (i > hi) hi = i
  }
  const span = hi - lo + 1
  const start = new Int32Array(span + 1)
  for (let j = 0; j < n; j++) start[item[j]! - lo + 1]!++
  for (let i = 0; i < span; i++) start[i + 1]! += start[i]!
  const fill = start.slice(0, span)
  const annotator = new Int32Array(n)
  for (let j = 0; j < n; j++) annotator[fill[item[j]! - lo]!++] = assigned.annotator[j]!
  return { lo, span, start, annotator }
}
