/** Small summaries used beside the per-judge figures. */

export interface Spread {
  runs: number
  mean: number
  sd: number | null
  min: number
  max: number
}

/**
 * Spread of one figure over repeated runs of the same config: judges are not deterministic, so
 * one run's error rate is a sample, not the answer. sd is the sample standard deviation.
 */
export function spread(values: readonly (number | null)[]): Spread | null {
  const xs = values.filter((v): v is number => v !== null)
  if (xs.length === 0) return null
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length
  const sd = xs.length < 2 ? null : Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1))
  return { runs: xs.length, mean, sd, min: Math.min(...xs), max: Math.max(...xs) }
}

/**
 * Indices of the points on the Pareto front when both coordinates are to be minimised (cost and
 * error rate): no other point is at least as good on both and better on one.
 */
export function paretoFront(points: readonly { x: number; y: number }[]): number[] {
  const order = points
    .map((_, i) => i)
    .sort((a, b) => points[a]!.x - points[b]!.x || points[a]!.y - points[b]!.y)
  const front: number[] = []
  let bestY = Number.POSITIVE_INFINITY
  for (const i of order) {
    if (points[i]!.y < bestY) {
      front.push(i)
      bestY = points[i]!.y
    }
  }
  return front.sort((a, b) => a - b)
}

/** Nearest-rank percentile of latencies (p in 0–100); null for no data. */
export function percentileOf(values: Float64Array | readonly number[], p: number): number | null {
  if (values.length === 0) return null
  const sorted = Float64Array.from(values).sort()
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1]!
}
