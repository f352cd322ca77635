/**
 * Wilson score interval for a proportion (95% by default): honest for the small counts a
 * handful of control items give, where the normal approximation would cross 0 or 1.
 */
export function wilsonInterval(
  correct: number,
  n: number,
  z = 1.959964,
): { low: number; high: number } | null {
  if (n <= 0) return null
  const p = correct / n
  const z2 = z * z
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n)
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n)
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
