/**
 * McNemar's exact test between two judges on the same targets: only the discordant targets
 * (one right, the other wrong) carry information, and under the null hypothesis each falls
 * either way with probability ½.
 */
export interface McNemar {
  /** Targets both judges judged against gold. */
  n: number
  /** First judge right, second wrong. */
  b: number
  /** First judge wrong, second right. */
  c: number
  /** Two-sided exact p-value (1 when there are no discordant targets). */
  pValue: number
}

export function mcnemarExact(b: number, c: number): number {
  const m = b + c
  if (m === 0) return 1
  const k = Math.min(b, c)
  // Sum the lower tail in log space so thousands of discordant pairs do not underflow.
  let tail = 0
  let logTerm = -m * Math.LN2
  for (let i = 0; i <= k; i++) {
    if (i > 0) logTerm += Math.log(m - i + 1) - Math.log(i)
    tail += Math.exp(logTerm)
  }
  return Math.min(1, 2 * tail)
}

/**
 * Compares two judges' correctness per target: 1 right, 0 wrong, -1 not judged (N/A, error,
 * no gold). Targets judged by only one of them are left out.
 */
export function mcnemar(correctA: ArrayLike<number>, correctB: ArrayLike<number>): McNemar {
  let n = 0
  let b = 0
  let c = 0
  for (let i = 0; i < correctA.length; i++) {
    const x = correctA[i]!
    const y = correctB[i]!
    if (x < 0 || y < 0) continue
    n++
    if (x === 1 && y === 0) b++
    else if (x === 0 && y === 1) c++
  }
  return { n, b, c, pValue: mcnemarExact(b, c) }
}
