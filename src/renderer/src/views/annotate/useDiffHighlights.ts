import { useDeferredValue, useEffect, useMemo } from 'react'
import type { Pane } from '../../../../shared/domain'
import { type WordDiff, wordDiff } from '../../../../shared/wordDiff'
import { paint, textRange } from './highlights'

export const HIGHLIGHT_DIFF_ADDED = 'factlab-diff-added'
export const HIGHLIGHT_DIFF_REMOVED = 'factlab-diff-removed'

type PaneRoots = React.RefObject<{ reference: HTMLDivElement | null; candidate: HTMLDivElement | null }>

/**
 * The word diff of the answer against the reference: computed once per pair of texts (to say
 * "identical" at a glance), painted only while the person asks for it. Painted, not marked up,
 * so evidence offsets and the alignment highlight are untouched.
 *
 * Diffing two long texts can take a good part of a second, so it runs in a render of its own
 * after the one that shows a new pair (a label that hands over to the next variant is drawn at
 * once); until it is done nothing is said or painted about the new pair.
 */
export function useDiffHighlights(
  roots: PaneRoots,
  texts: Record<Pane, string>,
  show: boolean,
): WordDiff | null {
  const settled = useDeferredValue<Record<Pane, string> | null>(texts, null)
  const diff = useMemo(() => (settled ? wordDiff(settled.reference, settled.candidate) : null), [settled])
  const current =
    settled !== null && settled.reference === texts.reference && settled.candidate === texts.candidate
  const shown = current ? diff : null
  useEffect(() => {
    const ranges = (pane: Pane, spans: { start: number; end: number }[]) => {
      const root = roots.current[pane]
      if (!root) return []
      return spans.flatMap((s) => textRange(root, s.start, s.end) ?? [])
    }
    paint(HIGHLIGHT_DIFF_ADDED, show && shown ? ranges('candidate', shown.added) : [])
    paint(HIGHLIGHT_DIFF_REMOVED, show && shown ? ranges('reference', shown.removed) : [])
  }, [shown, show, roots])
  useEffect(
    () => () => {
      paint(HIGHLIGHT_DIFF_ADDED, [])
      paint(HIGHLIGHT_DIFF_REMOVED, [])
    },
    [],
  )
  return shown
}
