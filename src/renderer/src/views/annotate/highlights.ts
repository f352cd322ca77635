import type { EvidenceSpan, Pane } from '../../../../shared/domain'

/**
 * Evidence and alignment are drawn with the CSS Custom Highlight API: ranges over the pane's
 * text node, no wrapping elements, so a 10,000-word article is never re-rendered to show them.
 */

/** A Range over [start, end) of the text inside `root`, or null when it falls outside. */
export function textRange(root: Node, start: number, end: number): Range | null {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  let seen = 0
  let startNode: Text | null = null
  let startOffset = 0
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    const len = n.data.length
    if (!startNode && start <= seen + len) {
      startNode = n
      startOffset = start - seen
    }
    if (startNode && end <= seen + len) {
      const r = document.createRange()
      r.setStart(startNode, startOffset)
      r.setEnd(n, end - seen)
      return r
    }
    seen += len
  }
  return null
}

/** Character offset of a DOM position (node, offset) within the text of `root`. */
export function offsetIn(root: Node, node: Node, offset: number): number {
  const r = document.createRange()
  r.setStart(root, 0)
  r.setEnd(node, offset)
  return r.toString().length
}

/** The current selection as an evidence span, when it lies inside one pane and is not empty. */
export function selectionSpan(panes: { pane: Pane; root: HTMLElement | null }[]): EvidenceSpan | null {
  const sel = window.getSelection()
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null
  const range = sel.getRangeAt(0)
  for (const { pane, root } of panes) {
    if (!root?.contains(range.startContainer) || !root.contains(range.endContainer)) continue
    let start = offsetIn(root, range.startContainer, range.startOffset)
    let end = offsetIn(root, range.endContainer, range.endOffset)
    const text = root.textContent ?? ''
    // Whitespace picked up at the edges of a drag is not evidence.
    while (start < end && /\s/.test(text[start]!)) start++
    while (end > start && /\s/.test(text[end - 1]!)) end--
    return end > start ? { pane, start, end } : null
  }
  return null
}

export const HIGHLIGHT_EVIDENCE = 'factlab-evidence'
export const HIGHLIGHT_ALIGN = 'factlab-align'

/** Replaces the ranges of one named highlight; a browser without the API just shows no colour. */
export function paint(name: string, ranges: Range[]): void {
  if (typeof CSS === 'undefined' || !('highlights' in CSS)) return
  if (ranges.length === 0) CSS.highlights.delete(name)
  else CSS.highlights.set(name, new Highlight(...ranges))
}

/** Scrolls a pane just enough to show a range, leaving it alone when it is already in view. */
export function revealRange(scroller: HTMLElement, range: Range): void {
  const box = range.getBoundingClientRect()
  const view = scroller.getBoundingClientRect()
  if (box.height === 0 && box.width === 0) return
  if (box.top >= view.top + 8 && box.bottom <= view.bottom - 8) return
  const target = scroller.scrollTop + (box.top - view.top) - view.height / 3
  scroller.scrollTo({ top: Math.max(0, target), behavior: 'auto' })
}
