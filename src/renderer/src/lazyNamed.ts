import { type ComponentType, lazy } from 'react'

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
