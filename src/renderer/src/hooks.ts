import { useCallback, useEffect, useRef, useState } from 'react'

export interface Query<T> {
  data: T | undefined
  error: string | null
  loading: boolean
  reload(): void
}

/**
 * Runs an async load when its inputs change and keeps the last good data while reloading, so
 * a view does not flash empty between pages. A stale answer never overwrites a newer one.
 */
export function useQuery<T>(load: () => Promise<T>, deps: readonly unknown[]): Query<T> {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [tick, setTick] = useState(0)
  const seq = useRef(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what the load depends on
  useEffect(() => {
    const mine = ++seq.current
    setLoading(true)
    load().then(
      (value) => {
        if (mine !== seq.current) return
        setData(value)
        setError(null)
        setLoading(false)
      },
      (e: unknown) => {
        if (mine !== seq.current) return
        setError(e instanceof Error ? e.message : String(e))
        setLoading(false)
      },
    )
  }, [...deps, tick])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  return { data, error, loading, reload }
}

/**
 * Calls `reread` when `key` changes after its first known value: a list read with the first
 * calls is read again when what it depends on moves, not once more when that first arrives.
 */
export function useRereadWhenChanged(key: string | undefined, reread: () => void): void {
  const seen = useRef<string | undefined>(undefined)
  useEffect(() => {
    if (key === undefined) return
    if (seen.current !== undefined && seen.current !== key) reread()
    seen.current = key
  }, [key, reread])
}

/** A value that follows `value` after it has been still for `ms` (search boxes). */
export function useDebounced<T>(value: T, ms: number): T {
  const [out, setOut] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setOut(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return out
}

/** A ref that focuses its element once mounted (dialogs put the cursor where typing starts). */
export function useFocusOnMount<T extends HTMLElement>(when = true): React.RefObject<T | null> {
  const ref = useRef<T | null>(null)
  useEffect(() => {
    if (when) ref.current?.focus()
  }, [when])
  return ref
}
