/** How long a hidden tab (which paints no frames) holds a label before sending it anyway. */
const HIDDEN_TAB_MS = 50

/**
 * Runs `fn` once the next frame is painted: in a task after the animation frame that draws the
 * change. A hidden tab gets no animation frames, so a timer runs it in any case: nothing waits
 * for the tab to be shown again.
 */
export function afterPaint(fn: () => void): void {
  let done = false
  const once = () => {
    if (done) return
    done = true
    clearTimeout(fallback)
    fn()
  }
  const fallback = setTimeout(once, HIDDEN_TAB_MS)
  requestAnimationFrame(() => setTimeout(once, 0))
}
