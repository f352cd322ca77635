/**
 * Order statistics of targets keyed by (time, index), found without sorting them all: the
 * narrowing chart asks only which target stands at each of its ten checkpoints, and sorting a
 * million label times for that took most of the chart's time.
 */

export interface TimeKey {
  time: number
  index: number
}

/** Lists this short are sorted outright. */
const SMALL = 256

/**
 * For each rank r (0-based), the key of the member that comes r-th when the members are ordered
 * by time, ties by index. `members` are indexes into `time`, ascending; their times are finite.
 * A rank of r means exactly r members sort before that key.
 *
 * Bucket selection: one pass spreads the members over 2^bucketBits buckets of equal width
 * between their earliest and latest time, counts give the bucket holding each rank, and only
 * those buckets are looked into, the same way, until a bucket is short or all one time. The
 * bucket of a time only grows with the time (every step of its arithmetic rounds monotonically),
 * so bucket order never contradicts time order, whatever the rounding.
 */
export function keysAtRanks(
  time: Float64Array,
  members: Int32Array,
  ranks: readonly number[],
  bucketBits = 16,
): Map<number, TimeKey> {
  // Two buckets could leave every member in the first one (the latest time's bucket may round down).
  if (!Number.isInteger(bucketBits) || bucketBits < 2 || bucketBits > 24)
    throw new RangeError(`bucketBits ${bucketBits} is outside 2 … 24`)
  const out = new Map<number, TimeKey>()
  const wanted = [...new Set(ranks)].sort((a, b) => a - b)
  for (const r of wanted)
    if (!Number.isInteger(r) || r < 0 || r >= members.length)
      throw new RangeError(`rank ${r} is outside 0 … ${members.length - 1}`)
  if (wanted.length > 0) select(time, members, wanted, 0, out, 2 ** bucketBits)
  return out
}

function select(
  time: Float64Array,
  members: Int32Array,
  /** ranks within `members`, ascending */
  ranks: readonly number[],
  /** added to a rank within `members` to give the caller's rank */
  offset: number,
  out: Map<number, TimeKey>,
  size: number,
): void {
  const m = members.length
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (let p = 0; p < m; p++) {
    const x = time[members[p]!]!
    if (x < min) min = x
    if (x > max) max = x
  }
  if (!(max > min)) {
    // One time: index order, which the members are in already.
    for (const r of ranks) out.set(r + offset, { time: min, index: members[r]! })
    return
  }
  // The earliest time falls in the first bucket and the latest in the last or the one before,
  // so every level splits its members (times too close or too far apart for that are sorted).
  const scale = (size - 1) / (max - min)
  if (m <= SMALL || !(scale > 0 && Number.isFinite(scale))) {
    // Members are in index order and the sort is stable: time order, ties by index.
    const sorted = Array.from(members).sort((a, b) => time[a]! - time[b]!)
    for (const r of ranks) out.set(r + offset, { time: time[sorted[r]!]!, index: sorted[r]! })
    return
  }
  // Each member's bucket, worked out once for the count and the gathering below.
  const bucket = new Int32Array(m)
  const start = new Int32Array(size + 1)
  for (let p = 0; p < m; p++) {
    const b = Math.min(size - 1, Math.floor((time[members[p]!]! - min) * scale))
    bucket[p] = b
    start[b + 1]!++
  }
  for (let b = 0; b < size; b++) start[b + 1]! += start[b]!
  const ranksIn = new Map<number, number[]>()
  for (const r of ranks) {
    // The last bucket starting at or before r: r falls inside it.
    let lo = 0
    let hi = size - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (start[mid]! <= r) lo = mid
      else hi = mid - 1
    }
    const list = ranksIn.get(lo)
    if (list) list.push(r)
    else ranksIn.set(lo, [r])
  }
  // The members of the buckets looked into, in index order; `slot` says where a bucket's go.
  const slot = new Int32Array(size).fill(-1)
  const lists: Int32Array[] = []
  for (const b of ranksIn.keys()) slot[b] = lists.push(new Int32Array(start[b + 1]! - start[b]!)) - 1
  const fill = new Int32Array(lists.length)
  for (let p = 0; p < m; p++) {
    const k = slot[bucket[p]!]!
    if (k >= 0) lists[k]![fill[k]!++] = members[p]!
  }
  for (const [b, rs] of ranksIn) {
    const s = start[b]!
    select(
      time,
      lists[slot[b]!]!,
      rs.map((r) => r - s),
      offset + s,
      out,
      size,
    )
  }
}
