import { useSyncExternalStore } from 'react'
import type { SaveStatus } from './useLabelSaver'

/** The bar's save state: always the same slot, so a save never moves anything else. */
export function SaveIndicator({ status, onRetry }: { status: SaveStatus; onRetry(): void }) {
  const state = useSyncExternalStore(status.subscribe, status.get)
  if (state.kind === 'saving')
    return (
      <span className="save-state saving" role="status">
        Saving…
      </span>
    )
  if (state.kind === 'saved')
    return (
      <span className="save-state saved" role="status">
        Saved ✓
      </span>
    )
  // The slot stays short so Retry is always in view; why, and what happens to the label, is
  // said in full under the bar (PendingBanner), where it wraps at any width.
  if (state.kind === 'error')
    return (
      <span className="save-state error" role="status">
        Not saved yet{' '}
        <button type="button" className="link" onClick={onRetry}>
          Retry
        </button>
      </span>
    )
  // The reason is long and must be read whole: it stands under the bar (RefusalBanner).
  if (state.kind === 'refused')
    return (
      <span className="save-state error" role="status" title={state.message}>
        Not saved
      </span>
    )
  return <span className="save-state" role="status" />
}

/**
 * Why the workspace refused the last label, in full, under the bar where it can wrap: in the
 * bar's slot a sentence of any length was cut off. It stays until a later label is saved.
 */
export function RefusalBanner({ status }: { status: SaveStatus }) {
  const state = useSyncExternalStore(status.subscribe, status.get)
  if (state.kind !== 'refused') return null
  return (
    <p className="error-box save-refusal" role="alert">
      <strong>Your last label was not saved.</strong> {state.message}
      {/[.!?]$/.test(state.message) ? '' : '.'}
      {/\breloaded\b/.test(state.message) ? '' : ' The item has been reloaded to show what is stored.'}
    </p>
  )
}

/**
 * Why labels are waiting and that they are kept, in full, while sends fail: under the bar in
 * Annotate (whose slot holds Retry), or on any other view with a Retry of its own.
 */
export function PendingBanner({ status, onRetry }: { status: SaveStatus; onRetry?: () => void }) {
  const state = useSyncExternalStore(status.subscribe, status.get)
  if (state.kind !== 'error') return null
  return (
    <p className="error-box save-pending" role="alert">
      {state.message}
      {onRetry && (
        <>
          {' '}
          <button type="button" className="link" onClick={onRetry}>
            Retry
          </button>
        </>
      )}
    </p>
  )
}

export function TabProgress({ done, total }: { done: number; total: number }) {
  if (total === 0) return null
  if (done === total)
    return (
      <span className="tab-count done" title="All units of this answer are labelled">
        ✓
      </span>
    )
  return (
    <span className="tab-count">
      {done}/{total}
    </span>
  )
}
