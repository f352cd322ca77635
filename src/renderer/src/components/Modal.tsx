import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react'
import { useEscape } from './useEscape'

/*
 * Every modal of the app is a native <dialog> opened with showModal(): the browser keeps Tab
 * inside it and makes the page behind inert, so no hand-written focus trap can leak. The dialog
 * never closes itself: React decides, so Escape goes through the same stack of open things as
 * the panels (useEscape), and a dialog without onClose (a first choice) ignores Escape.
 */

const FIELD = 'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])'

/** The element a person expects to act on first: a marked one, the first field, or the primary action. */
function firstTarget(dialog: HTMLDialogElement): HTMLElement | null {
  return (
    dialog.querySelector<HTMLElement>('[data-autofocus]') ??
    dialog.querySelector<HTMLElement>(FIELD) ??
    dialog.querySelector<HTMLElement>('button.primary:not([disabled])')
  )
}

export function Modal({
  className,
  labelledBy,
  label,
  onClose,
  focusRef,
  children,
}: {
  className: string
  labelledBy?: string
  label?: string
  /** Absent, Escape does nothing: the choice cannot be skipped. */
  onClose?: () => void
  /** Takes the focus on open instead of the first field or primary action. */
  focusRef?: RefObject<HTMLElement | null>
  children: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEscape(onClose)
  // Layout effect: shown before the first paint, and closed while still in the document, so the
  // focus can go back to whatever opened it.
  useLayoutEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!dialog.open) dialog.showModal()
    ;(focusRef?.current ?? firstTarget(dialog))?.focus()
    return () => {
      if (dialog.open) dialog.close()
      if (opener?.isConnected && opener !== document.body) opener.focus()
    }
  }, [focusRef])
  return (
    <dialog
      ref={ref}
      className={`modal ${className}`}
      aria-labelledby={labelledBy}
      aria-label={label}
      onCancel={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        // Without onClose nothing else claims Escape; keep the browser from closing the dialog.
        if (e.key === 'Escape' && !onClose) e.preventDefault()
      }}
    >
      {children}
    </dialog>
  )
}
