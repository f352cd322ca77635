/*
 * Selecting evidence without a mouse. A pane's text is not editable, so the browser moves no caret
 * in it (short of caret browsing, F7): with the pane focused, the arrows move one through the
 * Selection API, Shift extends it as in a text field, and `e` attaches what is selected.
 */

const STEPS: Record<string, { direction: 'forward' | 'backward'; granularity: string }> = {
  ArrowRight: { direction: 'forward', granularity: 'character' },
  ArrowLeft: { direction: 'backward', granularity: 'character' },
  ArrowDown: { direction: 'forward', granularity: 'line' },
  ArrowUp: { direction: 'backward', granularity: 'line' },
  End: { direction: 'forward', granularity: 'lineboundary' },
  Home: { direction: 'backward', granularity: 'lineboundary' },
}

/** Puts the caret at the start of the text unless the selection is in it already. */
export function caretIntoPane(root: HTMLElement): void {
  const sel = window.getSelection()
  if (!sel || (sel.anchorNode && root.contains(sel.anchorNode))) return
  sel.collapse(root.firstChild ?? root, 0)
}

/** Handles a key pressed in a focused pane; true when it moved or extended the selection. */
export function paneCaretKey(e: KeyboardEvent | React.KeyboardEvent, root: HTMLElement): boolean {
  const step = STEPS[e.key]
  if (!step || e.metaKey) return false
  const sel = window.getSelection()
  if (!sel) return false
  caretIntoPane(root)
  // Ctrl (Alt on a Mac) steps by words, as in a text field.
  const granularity = step.granularity === 'character' && (e.ctrlKey || e.altKey) ? 'word' : step.granularity
  sel.modify(e.shiftKey ? 'extend' : 'move', step.direction, granularity)
  // Never out of the pane: a step past its end would select the page around it.
  if (sel.focusNode && !root.contains(sel.focusNode)) sel.collapse(root.firstChild ?? root, 0)
  return true
}
