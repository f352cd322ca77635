/**
 * Wilson score interval for a binomial proportion (Wilson 1927). Unlike the percentile
 * bootstrap, it stays informative when the sample is small or every outcome is the same: 0 of 4
 * gives [0, 49%], not [0, 0]. `trials` may be fractional (F1 read as a Dice proportion).
 */
/** The standard normal quantile of 0.975: the z of every 95% interval here (Wilson's, Fisher's). */
export const Z_95 = 1.959963984540054

export function wilsonInterval(successes: number, trials: number, z = Z_95): [number, number] | null {
  if (!(trials > 0) || successes < 0 || successes > trials) return null
  const p = successes / trials
  const z2 = z * z
  const denom = 1 + z2 / trials
  const centre = (p + z2 / (2 * trials)) / denom
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))
  // Clamp the floating-point crumbs at the ends (0 of n must start at exactly 0).
  return [
    successes === 0 ? 0 : Math.max(0, centre - half),
    successes === trials ? 1 : Math.min(1, centre + half),
  ]
}
