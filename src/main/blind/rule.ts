import type { Viewer } from '../../shared/contract/viewer'

/*
 * The blind rule itself, without I/O. A viewer sees what others said about a target (other
 * annotators' verdicts, judges' verdicts, whether it is disputed) when blind mode is off, when
 * they have a current verdict on it (an undone or cleared label is none), or when they stepped
 * out of labelling the dataset to adjudicate it (they can no longer label, so nothing they see
 * can sway a label of theirs).
 */

export interface ViewerFacts {
  /** Targets the viewer has a current, non-cleared verdict on. */
  labelled: ReadonlySet<number>
  steppedOut: boolean
}

export function reveals(viewer: Viewer | undefined, facts: ViewerFacts, targetId: number): boolean {
  if (!viewer?.blind) return true
  if (facts.steppedOut) return true
  return facts.labelled.has(targetId)
}

/** Why an adjudicator may not decide a target, or null when they may. */
export function adjudicationRefusal(input: {
  labelledByAdjudicator: boolean
  allowSelfAdjudication: boolean
}): string | null {
  if (input.labelledByAdjudicator && !input.allowSelfAdjudication)
    return 'You labelled this target yourself, so another adjudicator decides it (the dataset can allow self-adjudication in its settings)'
  return null
}
