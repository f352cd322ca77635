import type { TargetColumns } from './load'
import { dcrScore } from './stats/methods'

/**
 * DCR scores per candidate from its sentence marks, under the judge's own rule: Eq. 3's n is every
 * sentence of the candidate, so one unmarked sentence (N/A, failed, not judged, unlabelled)
 * leaves the candidate without a score. Shared by the metrics and the per-response export, so
 * both agree with the judge's `dcr` detail.
 */
export interface DcrCandidate {
  sentences: number
  consistent: number
  inconsistent: number
  /** null when a sentence is unmarked (or n − β leaves nothing to divide by) */
  score: { z: number; score: number } | null
}

/** `mark(i)`: +1, −1, or 0 for a target without a mark. */
export function dcrCandidates(
  t: Pick<TargetColumns, 'candidate' | 'ids'>,
  mark: (i: number) => number,
  alpha: number,
  beta: number,
): Map<number, DcrCandidate> {
  const marks = new Map<number, number[]>()
  for (let i = 0; i < t.ids.length; i++) {
    const c = t.candidate[i]!
    const list = marks.get(c)
    if (list) list.push(mark(i))
    else marks.set(c, [mark(i)])
  }
  const out = new Map<number, DcrCandidate>()
  for (const [c, m] of marks) {
    const consistent = m.filter((x) => x > 0).length
    const inconsistent = m.filter((x) => x < 0).length
    const complete = consistent + inconsistent === m.length
    out.set(c, {
      sentences: m.length,
      consistent,
      inconsistent,
      score: complete ? dcrScore(m, alpha, beta) : null,
    })
  }
  return out
}
