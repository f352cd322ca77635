/**
 * DCR's consistency improvement rate (RAI, paper 002 §4.4): one rule for `judge improve`, the
 * metrics JSON, the reports and the views.
 *
 * A chain is one original candidate and its rewrites, round by round. The paper's rate is
 * corrected / inconsistent over every candidate the evaluator found inconsistent, so a rewrite
 * that failed, or one the judge could not score, is a candidate not corrected: leaving it out
 * would flatter the rate. Its multi-round figure is cumulative over the originals ("nearly 100%
 * in two rounds"), given here beside the round's own (conditional) rate.
 */

/**
 * What the judge found of one candidate. A sentence without a verdict (N/A, a failed call) says
 * nothing either way: it never makes a candidate inconsistent, and the rewrite keeps it word for
 * word, so it does not hold back a correction either. A candidate is inconsistent when a sentence
 * was judged inconsistent, consistent when none was and at least one was judged consistent, and
 * unscored when no sentence got a verdict.
 */
export type Finding = 'consistent' | 'inconsistent' | 'unscored'

export function findingOf(sentences: readonly (boolean | null)[]): Finding {
  if (sentences.some((s) => s === false)) return 'inconsistent'
  return sentences.some((s) => s === true) ? 'consistent' : 'unscored'
}

/** One original and what became of it: `rounds[0]` the original, `rounds[k]` its round-k rewrite (null: none). */
export type RaiChain = readonly (Finding | null)[]

export interface RaiRound {
  round: number
  /** Candidates of round k−1 found inconsistent: the round's denominator, failed rewrites included. */
  inconsistent: number
  /** Of those, rewrites found consistent in every sentence. */
  corrected: number
  /** Of those, the ones whose rewrite failed (no rewrite): not corrected. */
  failed: number
  /** Of those, rewrites the judge gave no verdict on at all: not corrected. */
  unscored: number
  /** corrected / inconsistent; null when nothing was inconsistent. */
  rate: number | null
  /** Originals found inconsistent: the cumulative rate's denominator, the same every round. */
  originals: number
  /** Originals corrected in this round or an earlier one. */
  correctedSoFar: number
  /** correctedSoFar / originals: the paper's multi-round curve. */
  cumulativeRate: number | null
}

/** The improvement rate of rounds 1…`rounds` over the chains. */
export function raiCurve(chains: readonly RaiChain[], rounds: number): RaiRound[] {
  const originals = chains.filter((c) => c[0] === 'inconsistent').length
  const out: RaiRound[] = []
  let correctedSoFar = 0
  for (let k = 1; k <= rounds; k++) {
    let inconsistent = 0
    let corrected = 0
    let failed = 0
    let unscored = 0
    for (const c of chains) {
      if (c[k - 1] !== 'inconsistent') continue
      inconsistent++
      const next = c[k] ?? null
      if (next === null) failed++
      else if (next === 'consistent') corrected++
      else if (next === 'unscored') unscored++
    }
    correctedSoFar += corrected
    out.push({
      round: k,
      inconsistent,
      corrected,
      failed,
      unscored,
      rate: inconsistent === 0 ? null : corrected / inconsistent,
      originals,
      correctedSoFar,
      cumulativeRate: originals === 0 ? null : correctedSoFar / originals,
    })
  }
  return out
}

/** Splits `answer+rai2` into its base variant and round; round 0 for an original. */
export function raiRoundOf(variant: string): { base: string; round: number } {
  const m = /^(.*)\+rai(\d+)$/.exec(variant)
  return m ? { base: m[1]!, round: Number(m[2]) } : { base: variant, round: 0 }
}

/**
 * Chains from candidates named by item and variant (`answer`, `answer+rai1`, …), as a dataset
 * holds them, with the number of rounds the rewrites reach. A rewrite absent from the list is one
 * that was never made.
 */
export function chainsOfVariants(
  candidates: readonly { item: number; variant: string; finding: Finding }[],
): {
  chains: RaiChain[]
  rounds: number
} {
  const byBase = new Map<string, (Finding | null)[]>()
  let rounds = 0
  for (const c of candidates) {
    const { base, round } = raiRoundOf(c.variant)
    const key = `${c.item}\u0000${base}`
    const chain = byBase.get(key) ?? []
    chain[round] = c.finding
    byBase.set(key, chain)
    rounds = Math.max(rounds, round)
  }
  const chains = [...byBase.values()]
    .filter((c) => c[0] !== undefined)
    .map((c) => Array.from(c, (f) => f ?? null))
  return { chains, rounds }
}
