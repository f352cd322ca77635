/** Figures specific to RefChecker and DCR (design.md, Methods 4 and 5). */

export const REFCHECKER_CLASSES = ['entailment', 'neutral', 'contradiction'] as const
export type RefClass = (typeof REFCHECKER_CLASSES)[number]
export type Distribution = Record<RefClass, number>

/**
 * Share of entailment / neutral / contradiction among one response's triplets, per response,
 * and their macro average (every response weighs the same, however many triplets it has).
 * Verdicts outside the three classes are ignored.
 */
export function refcheckerDistribution(rows: readonly { response: number; verdict: string }[]): {
  perResponse: Map<number, Distribution>
  macro: Distribution | null
} {
  const counts = new Map<number, Distribution & { total: number }>()
  for (const r of rows) {
    if (!(REFCHECKER_CLASSES as readonly string[]).includes(r.verdict)) continue
    let c = counts.get(r.response)
    if (!c) {
      c = { entailment: 0, neutral: 0, contradiction: 0, total: 0 }
      counts.set(r.response, c)
    }
    c[r.verdict as RefClass]++
    c.total++
  }
  const perResponse = new Map<number, Distribution>()
  const sum: Distribution = { entailment: 0, neutral: 0, contradiction: 0 }
  for (const [id, c] of counts) {
    const d: Distribution = {
      entailment: c.entailment / c.total,
      neutral: c.neutral / c.total,
      contradiction: c.contradiction / c.total,
    }
    perResponse.set(id, d)
    for (const k of REFCHECKER_CLASSES) sum[k] += d[k]
  }
  const m = perResponse.size
  if (m === 0) return { perResponse, macro: null }
  return {
    perResponse,
    macro: { entailment: sum.entailment / m, neutral: sum.neutral / m, contradiction: sum.contradiction / m },
  }
}

/**
 * DCR score of one candidate from its sentence marks (+1 consistent, −1 inconsistent):
 * Z = (Σ s_i − α) / (n − β), rescaled to [0, 1] as (Z + 1) / 2. Not defined when n = β.
 */
export function dcrScore(marks: readonly number[], alpha = 0, beta = 0): { z: number; score: number } | null {
  let sum = 0
  for (const s of marks) sum += s
  return dcrScoreOfSum(sum, marks.length, alpha, beta)
}

/** The same from the marks' sum and count (item scores count marks instead of listing them). */
export function dcrScoreOfSum(
  sum: number,
  n: number,
  alpha = 0,
  beta = 0,
): { z: number; score: number } | null {
  const denom = n - beta
  if (denom === 0) return null
  const z = (sum - alpha) / denom
  return { z, score: (z + 1) / 2 }
}
