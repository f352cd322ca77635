import { type SpanColumns, ST_OK } from './runStatus'
import { NONE, UNSUPPORTED } from './stats/binary'

/**
 * The Compare view's two lists over the loaded columns alone, no database: which targets to label
 * next and where the judges disagree with gold. queries.ts adds what the rows show from the
 * database; compareInBackground.ts runs these on another thread.
 */

/** A run's statuses and binary verdicts over the targets it reached (runSpanColumns). */
export type ListRun = Pick<SpanColumns, 'from' | 'to' | 'status' | 'bin'>

/**
 * The targets some of the runs reached, [lo, hi) over all of them ([n, 0) when none reached
 * any): outside it no run has a verdict.
 */
export function reachedByAny(runs: readonly Pick<SpanColumns, 'from' | 'to'>[], n: number): [number, number] {
  let lo = n
  let hi = 0
  for (const { from, to } of runs)
    if (from < to) {
      lo = Math.min(lo, from)
      hi = Math.max(hi, to)
    }
  return [lo, hi]
}

/** A target to label next: its dense index, how many judges answered, how many said unsupported. */
export interface NextPick {
  i: number
  votes: number
  unsupported: number
}

export const splitScore = (votes: number, unsupported: number): number => {
  const p = unsupported / votes
  return 4 * p * (1 - p)
}

/**
 * Targets without gold, the ones where judges disagree with each other most first, then more
 * judges, then target order: the first `limit` of that total order.
 */
export function labelNextPicks(goldBin: Int8Array, cols: readonly ListRun[], limit: number): NextPick[] {
  const n = goldBin.length
  const votes = new Uint16Array(n)
  const unsupported = new Uint16Array(n)
  // Only targets some run reached have votes.
  const [lo, hi] = reachedByAny(cols, n)
  for (const { from, to, status, bin } of cols)
    for (let i = from; i < to; i++) {
      if (status[i - from] !== ST_OK) continue
      votes[i]!++
      if (bin[i - from] === UNSUPPORTED) unsupported[i]!++
    }
  const score = (i: number) => splitScore(votes[i]!, unsupported[i]!)
  // A total order, so the first `limit` of it are the same whether everything is sorted or only
  // they are kept.
  const order = (a: number, b: number) => score(b) - score(a) || votes[b]! - votes[a]! || a - b
  const top: number[] = []
  for (let i = lo; i < hi; i++) {
    if (goldBin[i] !== NONE || votes[i] === 0) continue
    if (top.length === limit && order(i, top[limit - 1]!) > 0) continue
    let a = 0
    let b = top.length
    while (a < b) {
      const mid = (a + b) >>> 1
      if (order(top[mid]!, i) < 0) a = mid + 1
      else b = mid
    }
    top.splice(a, 0, i)
    if (top.length > limit) top.pop()
  }
  return top.map((i) => ({ i, votes: votes[i]!, unsupported: unsupported[i]! }))
}

/** A disagreement shown: the target's dense index and the run's place in the list of runs. */
export interface Hit {
  i: number
  r: number
}

/**
 * Where a judge's binary verdict and gold differ: how many such (target, run) pairs there are,
 * and the first `limit` of them listed by target, then by the runs' order.
 */
export function disagreementHits(
  t: { goldBin: Int8Array; variant: Uint16Array },
  cols: readonly ListRun[],
  variantCode: number,
  limit: number,
): { total: number; shown: Hit[] } {
  const { goldBin, variant } = t
  const shown: Hit[] = []
  let total = 0
  // Only targets some run reached can disagree.
  const [lo, hi] = reachedByAny(cols, goldBin.length)
  // Counted run by run (each pass reads its own columns in order), then only as many targets
  // as the shown hits need are walked in the listed order.
  for (const { from, to, status, bin } of cols)
    for (let i = from; i < to; i++) {
      const gold = goldBin[i]!
      if (
        gold !== NONE &&
        status[i - from] === ST_OK &&
        bin[i - from] !== gold &&
        (variantCode < 0 || variant[i] === variantCode)
      )
        total++
    }
  for (let i = lo; i < hi && shown.length < limit; i++) {
    if (variantCode >= 0 && variant[i] !== variantCode) continue
    const gold = goldBin[i]!
    if (gold === NONE) continue
    for (let r = 0; r < cols.length && shown.length < limit; r++) {
      const { from, to, status, bin } = cols[r]!
      if (i >= from && i < to && status[i - from] === ST_OK && bin[i - from] !== gold) shown.push({ i, r })
    }
  }
  return { total, shown }
}
