import { gammaln } from 'simple-statistics'

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
  // Sum the lower tail outwards from its largest term, relative to it, so thousands of
  // discordant pairs neither underflow nor cost one logarithm per term.
  let sum = 0
  let term = 1
  for (let i = k; i >= 0; i--) {
    sum += term
    term *= i / (m - i + 1)
    if (term < sum * 1e-17) break
  }
  const logLargest = gammaln(m + 1) - gammaln(k + 1) - gammaln(m - k + 1) - m * Math.LN2
  return Math.min(1, 2 * Math.exp(logLargest) * sum)
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

/**
 * One judge's correctness as two bit sets (judged against gold; right), so comparing every
 * pair of judges costs a few word operations per 32 targets instead of a loop over targets.
 */
export interface CorrectnessBits {
  judged: Uint32Array
  right: Uint32Array
}

export function correctnessBits(correct: ArrayLike<number>): CorrectnessBits {
  const words = Math.ceil(correct.length / 32)
  const judged = new Uint32Array(words)
  const right = new Uint32Array(words)
  for (let i = 0; i < correct.length; i++) {
    const x = correct[i]!
    if (x < 0) continue
    judged[i >>> 5]! |= 1 << (i & 31)
    if (x === 1) right[i >>> 5]! |= 1 << (i & 31)
  }
  return { judged, right }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff
}

/**
 * The same test as `mcnemar`, from bit sets. `words` [from, to) may name the only words where
 * both sets have judged bits (where the two runs' spans meet), so the rest are not read.
 */
export function mcnemarBits(
  a: CorrectnessBits,
  b: CorrectnessBits,
  words: readonly [from: number, to: number] = [0, a.judged.length],
): McNemar {
  let n = 0
  let onlyA = 0
  let onlyB = 0
  const end = Math.min(words[1], a.judged.length)
  for (let w = Math.max(0, words[0]); w < end; w++) {
    const both = a.judged[w]! & b.judged[w]!
    if (both === 0) continue
    n += popcount(both)
    const differ = both & (a.right[w]! ^ b.right[w]!)
    if (differ === 0) continue
    const ra = differ & a.right[w]!
    onlyA += popcount(ra)
    onlyB += popcount(differ ^ ra)
  }
  return { n, b: onlyA, c: onlyB, pValue: mcnemarExact(onlyA, onlyB) }
}
