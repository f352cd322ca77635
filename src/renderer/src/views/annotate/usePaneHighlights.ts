import { useEffect, useMemo } from 'react'
import type { AnnotateTarget } from '../../../../shared/contract/annotate'
import type { Pane } from '../../../../shared/domain'
import type { TargetLabel } from '../../actions/types'
import { alignerFor } from './alignerFor'
import { HIGHLIGHT_ALIGN, HIGHLIGHT_EVIDENCE, paint, revealRange, textRange } from './highlights'

type PaneRoots = React.RefObject<{ reference: HTMLDivElement | null; candidate: HTMLDivElement | null }>

interface Args {
  roots: PaneRoots
  scrollers: Record<Pane, React.RefObject<HTMLDivElement | null>>
  focused: AnnotateTarget | null
  label: TargetLabel | undefined
  texts: Record<Pane, string>
  /**
   * Units and the answer each is judged with, the ones on screen first: their passages are found
   * while the page is idle, ahead of the focus and of a switch to another variant.
   */
  ahead: readonly { unit: string; answer: string }[]
}

const PANES: Pane[] = ['reference', 'candidate']

/**
 * Runs `step` in the page's idle periods until it returns false (nothing left); `hasTime` says
 * whether the current period has room for more. Returns the cancel. A browser without idle
 * callbacks gets short timer slices instead.
 */
function whenIdle(step: (hasTime: () => boolean) => boolean): () => void {
  let cancel = () => {}
  const schedule = () => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback((deadline) => {
        if (step(() => deadline.timeRemaining() > 1)) schedule()
      })
      cancel = () => cancelIdleCallback(id)
    } else {
      const id = setTimeout(() => {
        const until = performance.now() + 4
        if (step(() => performance.now() < until)) schedule()
      }, 50)
      cancel = () => clearTimeout(id)
    }
  }
  schedule()
  return () => cancel()
}

/**
 * Highlights follow the focused unit: its evidence in one colour, and in another the passage of
 * each pane that best matches it, scrolled into view so the eye lands there. The scroll happens
 * only when the focus moves, never when evidence is attached, so a selection made far down a
 * long article stays where the person is reading.
 */
export function usePaneHighlights({ roots, scrollers, focused, label, texts, ahead }: Args): void {
  const aligners = {
    reference: useMemo(() => alignerFor(texts.reference), [texts.reference]),
    candidate: useMemo(() => alignerFor(texts.candidate), [texts.candidate]),
  }

  // Each aligner keeps its answer per unit text, so finding them while the page is idle leaves
  // only a look-up for the key press that moves the focus. Without this the first unit reached
  // after the list is shown paid for tokenising it (several milliseconds while the code is cold)
  // inside that label's frame, and a switch to another variant built that answer's aligner there.
  useEffect(() => {
    let next = 0
    return whenIdle((hasTime) => {
      for (; next < ahead.length && hasTime(); next++) {
        const { unit, answer } = ahead[next]!
        alignerFor(texts.reference)(unit)
        alignerFor(answer)(unit)
      }
      return next < ahead.length
    })
  }, [ahead, texts.reference])
  const focusKey = focused ? `${focused.targetId}:${focused.text}` : ''

  // biome-ignore lint/correctness/useExhaustiveDependencies: focusKey stands for the focused unit; aligners follow the texts
  useEffect(() => {
    const aligned: Range[] = []
    if (focused) {
      for (const pane of PANES) {
        const root = roots.current[pane]
        const span = aligners[pane](focused.text)
        const r = root && span && textRange(root, span.start, span.end)
        if (!r) continue
        aligned.push(r)
        const scroller = scrollers[pane].current
        if (scroller) revealRange(scroller, r)
      }
    }
    paint(HIGHLIGHT_ALIGN, aligned)
  }, [focusKey, aligners.reference, aligners.candidate])

  const evidence = label?.evidence
  // biome-ignore lint/correctness/useExhaustiveDependencies: the candidate text decides which ranges exist
  useEffect(() => {
    const ranges: Range[] = []
    for (const e of evidence ?? []) {
      const root = roots.current[e.pane]
      const r = root && textRange(root, e.start, e.end)
      if (r) ranges.push(r)
    }
    paint(HIGHLIGHT_EVIDENCE, ranges)
  }, [evidence, texts.candidate, roots])

  useEffect(
    () => () => {
      paint(HIGHLIGHT_EVIDENCE, [])
      paint(HIGHLIGHT_ALIGN, [])
    },
    [],
  )
}
