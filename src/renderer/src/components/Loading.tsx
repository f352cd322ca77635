import type { ReactNode } from 'react'
import type { Query } from '../hooks'

/**
 * What a screen shows between opening and its data arriving: what it waits for, in words, so a
 * slow count on a large dataset never looks like an empty or broken page.
 */
export function Loading({ what, detail }: { what: string; detail?: string }) {
  return (
    <div className="loading-state" role="status" aria-live="polite" aria-busy="true">
      <span className="spinner" aria-hidden="true" />
      <span>
        <strong>Loading {what}…</strong>
        {detail && <span className="muted"> {detail}</span>}
      </span>
    </div>
  )
}

/** A load that failed: what could not be loaded, why, and a way to try again. */
export function LoadFailed({ what, error, onRetry }: { what: string; error: string; onRetry?(): void }) {
  return (
    <div className="error-box load-failed" role="alert">
      <span>
        Could not load {what}: {error}
      </span>
      {onRetry && (
        <button type="button" className="tiny" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  )
}

/**
 * The one way a view waits on a `useQuery`: its loading state until the first answer, its error
 * when the call fails with nothing to show, otherwise the children drawn from the data. Data
 * already on screen stays while a reload runs (useQuery keeps it).
 */
export function QueryGate<T>({
  query,
  what,
  detail,
  children,
}: {
  query: Query<T>
  what: string
  detail?: string
  children(data: T): ReactNode
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>
  if (query.error !== null) return <LoadFailed what={what} error={query.error} onRetry={query.reload} />
  return <Loading what={what} {...(detail === undefined ? {} : { detail })} />
}
