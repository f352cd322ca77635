import type { TargetInput, VerdictOutcome } from '../judges/types'

export const MISSING_VERDICT = 'the judge returned no verdict for this target'

/**
 * Exactly one outcome per target sent, in target order: a target the judge skipped becomes N/A
 * with a reason (never dropped from the denominator), an `ok` without a verdict is N/A, and
 * outcomes for targets that were never sent are ignored.
 */
export function accountFor(
  targets: readonly TargetInput[],
  outcomes: readonly VerdictOutcome[],
): VerdictOutcome[] {
  const byId = new Map<number, VerdictOutcome>()
  for (const o of outcomes) if (!byId.has(o.targetId)) byId.set(o.targetId, o)
  return targets.map((t): VerdictOutcome => {
    const o = byId.get(t.targetId)
    if (!o) return { targetId: t.targetId, status: 'na', verdict: null, problem: MISSING_VERDICT }
    if (o.status === 'ok' && (o.verdict === null || o.verdict === ''))
      return { ...o, status: 'na', verdict: null, problem: o.problem ?? 'the judge gave an empty verdict' }
    return o
  })
}

/** Every target of a task as a transport/method error, when the method itself threw. */
export function allFailed(targets: readonly TargetInput[], problem: string): VerdictOutcome[] {
  return targets.map((t) => ({ targetId: t.targetId, status: 'error', verdict: null, problem }))
}
