import type { AnnotateView } from '../../../shared/contract/annotate'

/**
 * A refreshed view that reuses the previous view's target objects wherever nothing in them
 * changed. The unit rows are memoised on their target, so a quiet refresh after a save (blind
 * mode revealing judges) re-renders only the rows that really gained something.
 */
export function keepUnchanged(before: AnnotateView, after: AnnotateView): AnnotateView {
  const old = new Map(before.targets.map((t) => [t.targetId, t]))
  let reused = 0
  const targets = after.targets.map((t) => {
    const o = old.get(t.targetId)
    if (o && JSON.stringify(o) === JSON.stringify(t)) {
      reused++
      return o
    }
    return t
  })
  return reused === 0 ? after : { ...after, targets }
}
