import { useEffect, useRef } from 'react'

/*
 * Escape closes the dialog or panel opened last, wherever the focus is: on the page behind it,
 * on a button that opened it, or nowhere. One listener for all of them, in the capture phase,
 * so the key closes one thing and does not also reach the view underneath (which may bind
 * Escape itself).
 */

const open: { current: () => void }[] = []

function onKey(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || open.length === 0) return
  e.preventDefault()
  e.stopImmediatePropagation()
  open[open.length - 1]!.current()
}

/** While mounted (and `active`), Escape calls `onClose`; the latest opened is closed first. */
export function useEscape(onClose: (() => void) | undefined, active = true): void {
  const ref = useRef(onClose ?? (() => {}))
  ref.current = onClose ?? (() => {})
  const enabled = active && onClose !== undefined
  useEffect(() => {
    if (!enabled) return
    const entry = {
      get current() {
        return ref.current
      },
    }
    if (open.length === 0) window.addEventListener('keydown', onKey, true)
    open.push(entry)
    return () => {
      open.splice(open.indexOf(entry), 1)
      if (open.length === 0) window.removeEventListener('keydown', onKey, true)
    }
  }, [enabled])
}
