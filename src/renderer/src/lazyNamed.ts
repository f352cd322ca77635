import { type ComponentType, lazy, useEffect, useRef } from 'react'

/**
 * A component loaded when first drawn, from a module that exports it by name. The first screen
 * is the datasets list (behind "Who is labelling?"), so a fresh window parses and runs only what
 * it shows; the views, dialogs and panels a click opens come as chunks of their own. Each
 * `import()` stays literal at the call site for the bundler; draw the component inside a
 * Suspense whose fallback says what is loading.
 */
export function lazyNamed<K extends string, P>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(() => load().then((m) => ({ default: m[name] })))
}

/**
 * Loads a view's code once, when the browser is next idle after `when` turns true, so opening
 * the view later finds its script already run. For a view whose first open is slow: in browser
 * mode the server that answers the view's call also serves its script, and a script asked for
 * while that call is being worked out waits until it is done.
 */
export function useLoadWhenIdle(when: boolean, load: () => Promise<unknown>): void {
  const asked = useRef(false)
  useEffect(() => {
    if (!when || asked.current) return
    const idle = requestIdleCallback(() => {
      asked.current = true
      // A failed fetch here is tried again when the view is opened, and reported there.
      load().catch(() => {})
    })
    return () => cancelIdleCallback(idle)
  }, [when, load])
}
