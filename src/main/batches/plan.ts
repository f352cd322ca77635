import type { BatchLimits } from '../providers/batch/types'

/**
 * Splits requests (their line sizes in bytes, in order) into consecutive groups that respect a
 * provider's limits: at most `maxRequests` lines and `maxBytes` bytes (newlines counted) each.
 * Pure. A single line over the byte limit goes alone, and the provider says no to it.
 */
export function splitByLimits(sizes: readonly number[], limits: BatchLimits): number[][] {
  const groups: number[][] = []
  let current: number[] = []
  let bytes = 0
  sizes.forEach((size, i) => {
    const add = size + 1
    if (current.length > 0 && (current.length >= limits.maxRequests || bytes + add > limits.maxBytes)) {
      groups.push(current)
      current = []
      bytes = 0
    }
    current.push(i)
    bytes += add
  })
  if (current.length > 0) groups.push(current)
  return groups
}
