/**
 * Brings the page's pre-paint phase up to date now, in the key press's own task, while the label
 * waits for its frame anyway. After a layout change the browser checks again what lies under the
 * pointer at the very start of the next frame (the hover may have moved), and that hit test needs
 * pre-paint: left to the frame, it runs after the frame has begun, before its animation callbacks
 * and its paint, and delays both by up to a millisecond. A hit test here does that phase before
 * the frame; the frame needs the phase in any case, so nothing is done twice.
 */
export function prepareHitTest(): void {
  document.elementFromPoint(0, 0)
}
