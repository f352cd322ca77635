import { useEffect, useMemo } from 'react'
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
 */
export function useDiffHighlights(
  roots: PaneRoots,
  texts: Record<Pane, string>,
  show: boolean,
): WordDiff | null {
  const diff = useMemo(() => wordDiff(texts.reference, texts.candidate), [texts.reference, texts.candidate])
  useEffect(() => {
    const ranges = (pane: Pane, spans: { start: number; end: number }[]) => {
      const root = roots.current[pane]
      if (!root) return []
      return spans.flatMap((s) => textRange(root, s.start, s.end) ?? [])
    }
    paint(HIGHLIGHT_DIFF_ADDED, show && diff ? ranges('candidate', diff.added) : [])
    paint(HIGHLIGHT_DIFF_REMOVED, show && diff ? ranges('reference', diff.removed) : [])
  }, [diff, show, roots])
  useEffect(
    () => () => {
      paint(HIGHLIGHT_DIFF_ADDED, [])
      paint(HIGHLIGHT_DIFF_REMOVED, [])
    },
    [],
  )
  return diff
}
